// Voice from Node with @parley/web: sends a WAV file to an agent as if spoken into a microphone
// (in 40 ms frames at real time: the server refuses audio faster than 1.5 times real time), waits
// for the spoken reply, writes its audio to a WAV file and prints both sides' words.
//
//   npx tsx packages/web-sdk/examples/voice-wav.ts --base http://localhost:3000 --agent demo \
//     --origin http://localhost:3000 in.wav out.wav
//
// in.wav: 16-bit PCM mono at 16000, 24000 or 48000 Hz, e.g.
//   flite -voice kal16 -t "How do I reset my password" -o in.wav
// The agent must have voice on (Panel → Agents → agent → Voice) and list --origin in its allowed
// origins. Options: --language en-US, --timeout 60 (seconds to wait for the reply).
import { readFileSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { WebSocket } from "ws";
import { connect, type VoiceSampleRate, type WebSocketConstructor } from "../src/index.ts";

const FRAME_MS = 40;
/** Silence after the file, so the server hears the end of the turn (it waits for 600 ms of it). */
const TRAILING_SILENCE_MS = 1_000;
const RATES = [16_000, 24_000, 48_000];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    base: { type: "string", default: "http://localhost:3000" },
    agent: { type: "string", default: "demo" },
    origin: { type: "string" },
    language: { type: "string" },
    timeout: { type: "string", default: "60" },
  },
});
const [inputPath, outputPath] = positionals;
if (!inputPath || !outputPath) {
  console.error("usage: voice-wav.ts --base URL --agent ID --origin ORIGIN in.wav out.wav");
  process.exit(2);
}

const input = readWav(readFileSync(inputPath));
const origin = values.origin ?? new URL(values.base).origin;

// The server checks the Origin header against the agent's allowed origins; `ws` sends the one given here.
class OriginWebSocket extends WebSocket {
  constructor(url: string, protocols?: string | string[]) {
    super(url, protocols, { origin });
  }
}

const chat = connect({
  agentId: values.agent,
  baseUrl: values.base,
  storage: null,
  WebSocket: OriginWebSocket as unknown as WebSocketConstructor,
});

let userText = "";
let agentSpoken = "";
let agentText = "";
const audio: Int16Array[] = [];
let outputRate = 16_000;
let audioEnded = false;
/** An error that ends the wait (nothing recognised, a limit); a failed synthesis still sends the text. */
let refused = false;

chat.on("connection", ({ state, code, reason }) => {
  if (state === "closed" && code) fail(`The connection was closed: ${code} ${reason ?? ""}`);
});
chat.on("error", (error) => {
  console.error(`server: ${error.error}${error.details ? `: ${error.details}` : ""}`);
  if (!error.details?.startsWith("Speech synthesis failed")) refused = true;
});
chat.on("voice.speech_started", () => console.log("(the server hears speech)"));
chat.on("voice.speech_stopped", () => console.log("(the server heard the end of the turn)"));
chat.on("voice.state", (state) => console.log(`(voice: ${state})`));
chat.on("voice.transcript", ({ role, text }) => {
  if (role === "user") userText = text;
  else agentSpoken = text;
});
chat.on("message", (message) => {
  if (message.role !== "user") agentText = message.text;
});
chat.on("voice.audio.start", ({ format }) => {
  outputRate = format.sampleRate;
});
chat.on("voice.audio", ({ pcm }) => audio.push(pcm));
chat.on("voice.audio.end", () => {
  audioEnded = true;
});

await chat.voice.open({
  inputSampleRate: input.rate as VoiceSampleRate,
  outputSampleRate: 16_000,
  ...(values.language ? { language: values.language } : {}),
});
console.log(`Voice started; sending ${(input.samples.length / input.rate).toFixed(1)} s of audio at ${input.rate} Hz`);

// Real time: frame i leaves at start + i * 40 ms (sleeping to a schedule, so delays do not add up).
const frameSamples = (input.rate * FRAME_MS) / 1000;
const silence = new Int16Array((input.rate * TRAILING_SILENCE_MS) / 1000);
const stream = new Int16Array(input.samples.length + silence.length);
stream.set(input.samples);
const started = performance.now();
for (let i = 0; i * frameSamples < stream.length; i++) {
  const wait = started + i * FRAME_MS - performance.now();
  if (wait > 0) await sleep(wait);
  chat.voice.sendAudio(stream.subarray(i * frameSamples, (i + 1) * frameSamples));
}

// The reply: its text and its audio to the end, then (a moment more) what was spoken of it.
const deadline = Date.now() + Number(values.timeout) * 1000;
while (!(agentText && audioEnded) && !refused && Date.now() < deadline) await sleep(100);
for (let waited = 0; audioEnded && !agentSpoken && waited < 2_000; waited += 100) await sleep(100);
chat.voice.stop();
chat.close();

const reply = concat(audio);
writeFileSync(outputPath, wav(reply, outputRate));
console.log(`You said:     ${userText || "(nothing recognised)"}`);
console.log(`Agent wrote:  ${agentText || "(no reply)"}`);
console.log(`Agent spoke:  ${agentSpoken || "(nothing)"}`);
console.log(`Wrote ${outputPath}: ${(reply.length / outputRate).toFixed(1)} s of audio at ${outputRate} Hz`);
process.exit(agentText && reply.length > 0 ? 0 : 1);

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** The samples of a 16-bit PCM mono WAV file at a rate voice accepts. */
function readWav(file: Buffer): { rate: number; samples: Int16Array } {
  const usage = `${inputPath}: must be a WAV file of 16-bit PCM mono at 16000, 24000 or 48000 Hz (sox in.wav -r 16000 -c 1 -b 16 out.wav)`;
  if (file.toString("ascii", 0, 4) !== "RIFF" || file.toString("ascii", 8, 12) !== "WAVE") fail(usage);
  let rate = 0;
  for (let at = 12; at + 8 <= file.length; ) {
    const id = file.toString("ascii", at, at + 4);
    const size = file.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === "fmt ") {
      const format = file.readUInt16LE(body);
      const channels = file.readUInt16LE(body + 2);
      rate = file.readUInt32LE(body + 4);
      const bits = file.readUInt16LE(body + 14);
      if (format !== 1 || channels !== 1 || bits !== 16 || !RATES.includes(rate)) fail(usage);
    } else if (id === "data" && rate) {
      const end = Math.min(file.length, body + size) & ~1;
      const samples = new Int16Array((end - body) >> 1);
      for (let i = 0; i < samples.length; i++) samples[i] = file.readInt16LE(body + i * 2);
      return { rate, samples };
    }
    at = body + size + (size % 2);
  }
  return fail(usage);
}

function concat(pieces: Int16Array[]): Int16Array {
  const all = new Int16Array(pieces.reduce((total, piece) => total + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) {
    all.set(piece, offset);
    offset += piece.length;
  }
  return all;
}

function wav(samples: Int16Array, rate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + samples.length * 2, 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(samples.length * 2, 40);
  const body = Buffer.alloc(samples.length * 2);
  for (const [i, sample] of samples.entries()) body.writeInt16LE(sample, i * 2);
  return Buffer.concat([header, body]);
}
