// A reply read aloud: cut into sentences as the text arrives, each synthesised in turn and sent in
// 100 ms frames at the page's rate; what the visitor heard of a reply cut short. The synthesis is
// a stand-in that gives 10 ms of audio per character, so the timeline is known exactly.
import { describe, expect, it } from "vitest";
import type { VoiceServerFrame } from "../src/voice/protocol.ts";
import type { TextToSpeech } from "../src/voice/speech.ts";
import { SpokenReply, speakableText } from "../src/voice/spoken-reply.ts";

const spokenTexts: string[] = [];
const tts: TextToSpeech = {
  name: "ten-ms-a-character",
  voices: ["plain"],
  async synthesize(text) {
    spokenTexts.push(text);
    return new Int16Array(text.length * 160).fill(1_000);
  },
};

function reply(outputRate = 24_000, now = () => 0) {
  const frames: VoiceServerFrame[] = [];
  const audio: number[] = [];
  const spoken = new SpokenReply(
    tts,
    { voice: "plain", language: "en", outputRate },
    {
      frame: (frame) => frames.push(frame),
      audio: (bytes) => audio.push(bytes.byteLength),
      failed: (error) => {
        throw error;
      },
    },
    now,
  );
  return { spoken, frames, audio };
}

describe("a reply read aloud", () => {
  it("speaks each sentence once it is complete, in frames of 100 ms at the output rate, then ends the audio", async () => {
    spokenTexts.length = 0;
    const { spoken, frames, audio } = reply();
    spoken.push("To reset it, open the sign");
    expect(spokenTexts).toEqual([]);
    spoken.push("-in page. Then choose **Forgot password**.");
    await spoken.finish();
    expect(spokenTexts).toEqual(["To reset it, open the sign-in page.", "Then choose Forgot password."]);
    expect(frames).toEqual([
      { type: "voice.audio.start", responseId: spoken.id, format: { encoding: "pcm16", sampleRate: 24_000 } },
      { type: "voice.audio.end", responseId: spoken.id, interrupted: false },
    ]);
    // 100 ms at 24 kHz is 2,400 samples, 4,800 bytes; the last frame of each sentence is shorter.
    expect(Math.max(...audio)).toBe(4_800);
    expect(audio.reduce((sum, bytes) => sum + bytes, 0)).toBe((35 + 28) * 10 * 24 * 2);
    expect(spoken.spokenText()).toBe("To reset it, open the sign-in page. Then choose Forgot password.");
  });

  it("keeps what was heard of a reply cut short: whole sentences, and the share of words of the one cut", async () => {
    const { spoken, frames } = reply(16_000);
    spoken.push("One two three four. Five six seven eight. ");
    await new Promise((resolve) => setTimeout(resolve, 10));
    spoken.interrupt();
    expect(frames.at(-1)).toEqual({ type: "voice.audio.end", responseId: spoken.id, interrupted: true });
    // "One two three four." is 19 characters: 190 ms; the second sentence starts there.
    expect(spoken.heardText(0)).toBe("");
    expect(spoken.heardText(190)).toBe("One two three four.");
    expect(spoken.heardText(190 + 105)).toBe("One two three four. Five six");
    expect(spoken.heardText(10_000)).toBe("One two three four. Five six seven eight.");
    // Nothing more is spoken after the cut.
    spoken.push("Nine ten. ");
    await spoken.finish();
    expect(spoken.spokenText()).toBe("One two three four. Five six seven eight.");
  });
});

describe("what is read aloud of Markdown", () => {
  it("reads link texts, list items and emphasis as words; no addresses, images or citation marks", () => {
    expect(speakableText("See [the reset guide](https://help.example.com/reset) [1]. Go to https://example.com now.")).toBe(
      "See the reset guide. Go to now.",
    );
    // Steps without a full stop of their own are read as sentences, not run together.
    expect(speakableText("1. Open **Settings**\n2. Choose `Security`\n\n![logo](/logo.png)")).toBe("Open Settings. Choose Security.");
    expect(speakableText("## Steps\n\n- First\n- Second?\n  - nested")).toBe("Steps. First. Second? nested.");
  });

  it("never reads a list's numbers, bullets or escapes, whether the reply comes whole or in pieces", async () => {
    // A knowledge answer as the engine writes it (numbered steps, a bulleted list, escaped text).
    const markdown = [
      "From “How to reset your password”:",
      "",
      "1. Go to the sign-in page.",
      "2. Choose Forgot password? under the password field.",
      "3. Enter your email",
      "",
      "- At least 12 characters",
      "- Not one of your last 5 passwords",
      "",
      "Version 2. It costs 5 \\* 3 credits.",
    ].join("\n");
    const said = [
      "Go to the sign-in page.",
      "Choose Forgot password?",
      "under the password field.",
      "Enter your email.",
      "At least 12 characters.",
      "Not one of your last 5 passwords.",
      "Version 2.",
      "It costs 5 * 3 credits.",
    ];
    // Whole (the knowledge agent answers at once): one piece up to the last sentence end, then the rest.
    // A clock that jumps ahead: the audio counts as played at once (no waiting for it in real time).
    let clock = 0;
    const later = () => (clock += 60_000);
    spokenTexts.length = 0;
    const whole = reply(24_000, later);
    whole.spoken.push(markdown);
    await whole.spoken.finish();
    expect(whole.spoken.spokenText()).toBe(`From “How to reset your password”: ${said.join(" ")}`);
    // In pieces of 5 characters, as a model streams: each sentence once complete, no "2." on its own.
    spokenTexts.length = 0;
    const pieces = reply(24_000, later);
    for (let i = 0; i < markdown.length; i += 5) pieces.spoken.push(markdown.slice(i, i + 5));
    await pieces.spoken.finish();
    expect(spokenTexts).toEqual(["From “How to reset your password”:", ...said]);
  });
});
