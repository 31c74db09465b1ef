// PocketSphinx (voice/stt-pocketsphinx.ts) on speech from Flite: one utterance in, its own
// transcript out, one after another, several at once, with pauses inside, after a crash of the
// process, and with a caller that gives up. Needs Debian's pocketsphinx and pocketsphinx-en-us;
// skipped without them.
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { concatPcm } from "../src/voice/pcm.ts";
import { asSentence, PocketSphinxRecognizer } from "../src/voice/stt-pocketsphinx.ts";
import { FliteTextToSpeech } from "../src/voice/tts-flite.ts";

const installed = PocketSphinxRecognizer.available();
if (!installed) console.warn("voice-pocketsphinx: skipped, pocketsphinx_continuous or pocketsphinx-en-us is not installed");

const tts = new FliteTextToSpeech();
const stt = new PocketSphinxRecognizer();
const EN = { language: "en" };
const silence = (ms: number) => new Int16Array(ms * 16);

/** An utterance as the session hands it over: 300 ms of lead-in, the speech, a little silence. */
async function utterance(text: string): Promise<Int16Array> {
  return concatPcm([silence(300), await tts.synthesize(text, { voice: "kal16", language: "en" }), silence(300)]);
}

let password: Int16Array;
let refund: Int16Array;

beforeAll(async () => {
  password = await utterance("How do I reset my password");
  refund = await utterance("I want a refund for my order");
});

afterAll(async () => {
  await stt.close();
  await tts.close();
});

describe.skipIf(!installed)("PocketSphinx", () => {
  it("transcribes an utterance", async () => {
    const { text } = await stt.transcribe(password, EN);
    expect(text).toContain("password");
  });

  it("gives each utterance its own transcript, one by one and several at once", async () => {
    expect((await stt.transcribe(refund, EN)).text).toContain("refund");
    expect((await stt.transcribe(password, EN)).text).toContain("password");
    const inputs = [password, refund, password, refund, refund];
    const texts = (await Promise.all(inputs.map((audio) => stt.transcribe(audio, EN)))).map((result) => result.text);
    for (const [i, text] of texts.entries()) {
      expect(text).toContain(inputs[i] === password ? "password" : "refund");
      expect(text).not.toContain(inputs[i] === password ? "refund" : "password");
    }
  });

  it("joins the pieces of an utterance with a long pause inside", async () => {
    const { text } = await stt.transcribe(concatPcm([password, silence(1_000), refund]), EN);
    expect(text).toMatch(/password.*refund/);
  });

  it("answers empty text for silence, at once", async () => {
    const started = performance.now();
    expect(await stt.transcribe(silence(2_000), EN)).toEqual({ text: "" });
    expect(await stt.transcribe(new Int16Array(0), EN)).toEqual({ text: "" });
    expect(performance.now() - started).toBeLessThan(50);
  });

  it("recognises English only", async () => {
    await expect(stt.transcribe(password, { language: "de" })).rejects.toThrow(/English only/);
    expect((await stt.transcribe(password, { language: "en-US" })).text).toContain("password");
  });

  it("starts a new process when one dies, and retries the utterance it was given", async () => {
    await stt.transcribe(password, EN);
    // This test file's own children: the recognizer's processes.
    const pids = execFileSync("pgrep", ["-P", String(process.pid), "-x", "pocketsphinx_co"], { encoding: "utf8" })
      .trim()
      .split("\n");
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(Number(pid), "SIGKILL");
    // Written at once, most likely to the dying process before its exit is seen: tried again on a new one.
    expect((await stt.transcribe(refund, EN)).text).toContain("refund");
  });

  it("ends its processes after a quiet spell, and starts one again for the next utterance", async () => {
    const quiet = new PocketSphinxRecognizer({ idleMs: 300 });
    const children = () => {
      try {
        return execFileSync("pgrep", ["-P", String(process.pid), "-x", "pocketsphinx_co"], { encoding: "utf8" })
          .trim()
          .split("\n").length;
      } catch {
        return 0; // pgrep exits 1 when nothing matches
      }
    };
    const before = children();
    expect((await quiet.transcribe(password, EN)).text).toContain("password");
    expect(children()).toBe(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(children()).toBe(before);
    expect((await quiet.transcribe(refund, EN)).text).toContain("refund");
    await quiet.close();
  });

  it("drops the answer of a caller that gave up, and the next caller gets its own", async () => {
    const controller = new AbortController();
    const abandoned = stt.transcribe(password, { ...EN, signal: controller.signal });
    const next = stt.transcribe(refund, EN);
    controller.abort(new Error("visitor hung up"));
    await expect(abandoned).rejects.toThrow("visitor hung up");
    expect((await next).text).toContain("refund");
    await expect(stt.transcribe(password, { ...EN, signal: AbortSignal.abort(new Error("already gone")) })).rejects.toThrow("already gone");
  });

  it("fails clearly when the program cannot run, and refuses work once closed", async () => {
    const broken = new PocketSphinxRecognizer({ binary: "/bin/false" });
    await expect(broken.transcribe(password, EN)).rejects.toThrow(/PocketSphinx exited with code 1/);
    await broken.close();
    await expect(broken.transcribe(password, EN)).rejects.toThrow(/closed/);
    expect(PocketSphinxRecognizer.available({ binary: "/nonexistent/pocketsphinx" })).toBe(false);
    expect(PocketSphinxRecognizer.available({ modelDir: "/nonexistent" })).toBe(false);
  });
});

describe("a transcript written as a sentence", () => {
  it("capitalises, writes I, and ends a question with a question mark and anything else with a full stop", () => {
    expect(asSentence("how do i reset my password")).toBe("How do I reset my password?");
    expect(asSentence("i want a refund  for my order")).toBe("I want a refund for my order.");
    expect(asSentence("  ")).toBe("");
  });
});
