// The audio side of the voice journeys (e2e/voice.spec.ts), run with tsx: Playwright loads test
// files as CommonJS, and core's voice module is ESM, so the spec runs core's engines through this.
//
//   tsx e2e/voice-audio.ts speak <out.wav> '<[{"silenceMs":1000,"text":"…"}, …]>'
//     Each text in Flite's kal16 voice after its silence, then 2 s of silence: a 16 kHz WAV file.
//   tsx e2e/voice-audio.ts recognise <in.pcm> <sampleRate>
//     Raw PCM16LE mono audio at that rate, recognised by PocketSphinx: prints {"text": "…"}.
import { readFileSync, writeFileSync } from "node:fs";
import {
  bytesToPcm,
  concatPcm,
  encodeWav,
  FliteTextToSpeech,
  PocketSphinxRecognizer,
  resample,
  SPEECH_SAMPLE_RATE,
} from "@parley/core/voice";
import { z } from "zod";

const partsSchema = z.array(z.strictObject({ silenceMs: z.number().int().min(0).max(60_000), text: z.string().min(1) })).min(1);
const TRAILING_SILENCE_MS = 2_000;

function silence(ms: number): Int16Array {
  return new Int16Array((SPEECH_SAMPLE_RATE * ms) / 1000);
}

async function speak(file: string, json: string): Promise<void> {
  const parts = partsSchema.parse(JSON.parse(json));
  const tts = new FliteTextToSpeech();
  try {
    const pieces: Int16Array[] = [];
    for (const part of parts) pieces.push(silence(part.silenceMs), await tts.synthesize(part.text, { voice: "kal16", language: "en" }));
    pieces.push(silence(TRAILING_SILENCE_MS));
    writeFileSync(file, encodeWav(concatPcm(pieces), SPEECH_SAMPLE_RATE));
  } finally {
    await tts.close();
  }
}

async function recognise(file: string, rate: number): Promise<void> {
  const audio = resample(bytesToPcm(readFileSync(file)), rate, SPEECH_SAMPLE_RATE);
  const recognizer = new PocketSphinxRecognizer();
  try {
    process.stdout.write(`${JSON.stringify(await recognizer.transcribe(audio, { language: "en" }))}\n`);
  } finally {
    await recognizer.close();
  }
}

async function main(): Promise<void> {
  const [command, file, argument] = process.argv.slice(2);
  if (command === "speak" && file && argument) return speak(file, argument);
  if (command === "recognise" && file && argument) return recognise(file, z.coerce.number().int().positive().parse(argument));
  throw new Error("usage: voice-audio.ts speak <out.wav> <parts JSON> | recognise <in.pcm> <sampleRate>");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
