// Voice in the widget, in Chromium, with nothing faked on the server: a WAV file made at test time
// by the embedded synthesis (core's Flite) is Chromium's microphone (its fake capture device), the
// app hears it with its own engines (Silero VAD, PocketSphinx) and reads the reply aloud with
// Flite. The visitor on a help page talks to the demo agent: their words appear as their message,
// the answer as text, and the reply's audio arrives and says the answer; speaking over the reply
// cuts it (the widget and the panel's transcript mark it interrupted); a visitor who refuses the
// microphone is told so plainly and goes on typing.
import { execFile } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { type Browser, chromium, expect, type Locator, type Page, type TestInfo, test, type WebSocket } from "@playwright/test";
import { axeViolations } from "./axe.ts";
import { E2E_PORT } from "./playwright.config.ts";
import { keepScreenshot, signIn } from "./support.ts";

const APP_URL = `http://localhost:${E2E_PORT}`;

const QUESTION = "How do I reset my password?";
/** Spoken over the reply in journey 2. */
const INTERRUPTION = "Wait, tell me about refunds instead.";
/**
 * Silence between the question and the interruption. The reply (about 35 s of audio) starts 1.5 s
 * after the question ends with the engines loaded (0.6 s of silence ends the turn, then
 * recognition, the answer, the first sentence's synthesis), and up to 8 s after on a server whose
 * PocketSphinx and Flite have not run yet (this journey alone): the interruption lands while it plays.
 */
const GAP_BEFORE_INTERRUPTION_MS = 10_000;
/** The start of the reply's audio that is recognised (its first sentence names the article). */
const RECOGNISED_REPLY_SECONDS = 10;
const NO_POCKETSPHINX =
  "PocketSphinx is not installed (apt-get install pocketsphinx pocketsphinx-en-us): this server cannot hear a visitor, so the widget offers no voice (CI installs it)";

interface Frame {
  type: string;
  [key: string]: unknown;
}

/** What went over the widget's socket: JSON frames both ways, and the replies' audio by responseId. */
interface SocketLog {
  received: Array<Frame & { at: number }>;
  sent: Frame[];
  replies: Map<string, { rate: number; chunks: Buffer[] }>;
}

function watchSocket(page: Page): SocketLog {
  const log: SocketLog = { received: [], sent: [], replies: new Map() };
  page.on("websocket", (socket: WebSocket) => {
    let current: Buffer[] | null = null;
    socket.on("framereceived", ({ payload }) => {
      if (typeof payload !== "string") {
        // Binary frames: the audio of the reply announced by the last voice.audio.start.
        current?.push(payload);
        return;
      }
      const frame = JSON.parse(payload) as Frame;
      log.received.push({ ...frame, at: Date.now() });
      if (frame.type === "voice.audio.start") {
        current = [];
        const format = frame.format as { sampleRate: number };
        log.replies.set(frame.responseId as string, { rate: format.sampleRate, chunks: current });
      } else if (frame.type === "voice.audio.end") current = null;
    });
    socket.on("framesent", ({ payload }) => {
      if (typeof payload === "string") log.sent.push(JSON.parse(payload) as Frame);
    });
  });
  return log;
}

/** The first received frame of `type` matching `where`, once it has come. */
async function frame(log: SocketLog, type: string, where: (frame: Frame) => boolean = () => true, timeout = 30_000) {
  const find = () => log.received.find((candidate) => candidate.type === type && where(candidate));
  await expect.poll(() => find() !== undefined, { message: `no ${type} frame`, timeout }).toBe(true);
  return find() as Frame & { at: number };
}

/** Runs e2e/voice-audio.ts (core's speech engines) with tsx; returns what it prints. */
async function voiceAudio(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)("npx", ["--no-install", "tsx", "e2e/voice-audio.ts", ...args], {
    cwd: path.join(__dirname, ".."),
    timeout: 60_000,
  });
  return stdout;
}

/**
 * The sentences in Flite's voice, each after the silence before it, then 2 s of silence: a 16 kHz
 * WAV file in the test's output folder (Chromium's fake capture reads 16 and 48 kHz files alike;
 * 16 kHz is the engines' rate).
 */
async function speechFile(testInfo: TestInfo, name: string, parts: Array<{ silenceMs: number; text: string }>): Promise<string> {
  const file = testInfo.outputPath(`${name}.wav`);
  await voiceAudio("speak", file, JSON.stringify(parts));
  return file;
}

/** What PocketSphinx hears in PCM16LE mono audio at `rate`. */
async function recognise(testInfo: TestInfo, name: string, audio: Buffer, rate: number): Promise<string> {
  const file = testInfo.outputPath(`${name}.pcm`);
  writeFileSync(file, audio);
  return (JSON.parse(await voiceAudio("recognise", file, String(rate))) as { text: string }).text;
}

/**
 * Whether the server can hear a visitor: the program and model core's PocketSphinxRecognizer uses
 * (stt-pocketsphinx.ts; this file cannot import core, see voice-audio.ts).
 */
function pocketSphinxInstalled(): boolean {
  return existsSync("/usr/bin/pocketsphinx_continuous") && existsSync("/usr/share/pocketsphinx/model/en-us/en-us/mdef");
}

/**
 * A Chromium whose microphone plays `wav` once (then silence) from the moment a page opens it,
 * and grants it without asking. `%noloop`: without it the file starts over at its end.
 */
function launchWithMicrophone(testInfo: TestInfo, wav: string): Promise<Browser> {
  const launch = testInfo.project.use.launchOptions ?? {};
  return chromium.launch({
    ...launch,
    args: [
      ...(launch.args ?? []),
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
      `--use-file-for-fake-audio-capture=${wav}%noloop`,
    ],
  });
}

/** Turns the demo agent's voice on or off in the panel (the page signs in). */
async function setDemoVoice(page: Page, on: boolean): Promise<void> {
  await signIn(page);
  await page.goto("/panel/agents/demo?tab=channels");
  const settings = page.getByRole("tabpanel", { name: "Channels" }).getByRole("region", { name: "Channels", exact: true });
  // The form holds the stored settings once the origins are in.
  await expect(settings.getByLabel("Allowed origins")).toHaveValue(/localhost/);
  const enabled = settings.getByRole("group", { name: "Voice", exact: true }).getByLabel("Voice enabled");
  if ((await enabled.isChecked()) === on) return;
  await enabled.setChecked(on);
  await settings.getByRole("button", { name: "Save channel settings" }).click();
  await expect(settings.getByRole("status")).toHaveText("Channel settings saved.");
}

/** The widget's parts, found by role and label (locators pierce its open shadow root). */
function widget(page: Page) {
  const panel = page.getByRole("dialog", { name: "Chat with us" });
  const log = panel.getByRole("log", { name: "Conversation" });
  const voice = panel.getByRole("group", { name: "Voice conversation" });
  return {
    panel,
    log,
    input: panel.getByLabel("Your message"),
    mic: panel.getByRole("button", { name: "Talk to the agent by voice" }),
    voice,
    voiceState: voice.locator(".state"),
    visitorMessages: log.locator("li.msg.user"),
    agentMessages: log.locator("li.msg.agent:not(.partial)"),
  };
}

/** The help centre's home with the widget open, the microphone offered. */
async function openHelpWidget(page: Page, options: { voiceProcessing: boolean }) {
  await page.goto("/help/demo");
  await expect(page.getByRole("button", { name: "Open chat" })).toBeVisible();
  if (!options.voiceProcessing) {
    // The widget's documented attribute for test devices: Chromium's echo cancellation and noise
    // suppression would treat the file's speech as noise. Read when voice starts, so setting it
    // on the help page's own tag now is what a site's tag would do.
    const set = await page.evaluate(() => {
      const script = document.querySelector<HTMLScriptElement>('script[src$="/widget.js"][data-agent-id="demo"]');
      script?.setAttribute("data-voice-processing", "off");
      return script !== null;
    });
    expect(set).toBe(true);
  }
  await page.getByRole("button", { name: "Open chat" }).click();
  const chat = widget(page);
  await expect(chat.panel).toBeVisible();
  await expect(chat.mic).toBeVisible();
  return chat;
}

async function conversationId(page: Page): Promise<string> {
  const id = await page.evaluate(
    () => (window as unknown as { parley?: { connection?: { conversationId: string | null } } }).parley?.connection?.conversationId,
  );
  expect(id).toBeTruthy();
  return id as string;
}

/** A screenshot of the page as the visitor sees it, at the viewport's width. */
async function shot(page: Page, testInfo: TestInfo, name: string, width: 1280 | 390): Promise<void> {
  await page.setViewportSize(width === 1280 ? { width: 1280, height: 900 } : { width: 390, height: 844 });
  await keepScreenshot(page, testInfo, `${name}-${width}`, { fullPage: false });
}

async function keepElementScreenshot(locator: Locator, testInfo: TestInfo, name: string): Promise<void> {
  const file = path.join(testInfo.project.testDir, "artifacts", "screenshots", `${name}.png`);
  await locator.screenshot({ path: file, animations: "disabled" });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

/**
 * run-shards.mjs starts these journeys beside its shards, so that their server is up when the shards
 * end, and names in E2E_START_AFTER the file it writes then: real audio timed through speech
 * recognition must not share the cores with another shard.
 */
async function startAfterOtherShards(): Promise<void> {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: set by run-shards.mjs for this file, never by a turbo task.
  const marker = process.env.E2E_START_AFTER;
  if (!marker) return;
  test.setTimeout(1_200_000);
  while (!existsSync(marker)) await new Promise((resolve) => setTimeout(resolve, 500));
}

test.describe("voice in the widget", () => {
  test.skip(!pocketSphinxInstalled(), NO_POCKETSPHINX);
  // Real speech at real time, twice, plus recognition and synthesis on two shared cores.
  test.describe.configure({ timeout: 180_000 });

  test.beforeAll(async ({ browser }) => {
    await startAfterOtherShards();
    const page = await browser.newPage({ baseURL: APP_URL });
    await setDemoVoice(page, true);
    await page.close();
  });

  test.afterAll(async ({ browser }) => {
    // The demo agent as seeded (voice off) for the suites after this one.
    const page = await browser.newPage({ baseURL: APP_URL });
    await setDemoVoice(page, false);
    await page.close();
  });

  test("a visitor asks by voice: their words and the answer show, and the reply is spoken", async ({ baseURL }, testInfo) => {
    const wav = await speechFile(testInfo, "question", [{ silenceMs: 1_000, text: QUESTION }]);
    const browser = await launchWithMicrophone(testInfo, wav);
    try {
      const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const socket = watchSocket(page);
      const chat = await openHelpWidget(page, { voiceProcessing: false });

      await chat.mic.click();
      await expect(chat.voice).toBeVisible();
      await expect(chat.voiceState).toHaveText("Listening…");
      await expect(chat.voice.getByRole("button", { name: "End voice" })).toBeFocused();
      await shot(page, testInfo, "voice-listening", 1280);
      const start = socket.sent.find((sent) => sent.type === "voice.start");
      expect(start).toMatchObject({ input: { encoding: "pcm16", sampleRate: 16_000 }, output: { encoding: "pcm16", sampleRate: 16_000 } });

      // The visitor's words: recognised by the server, shown as their message with the voice mark.
      const heard = await frame(socket, "voice.transcript", (sent) => sent.role === "user" && sent.final === true);
      expect(String(heard.text)).toContain("password");
      const visitor = chat.visitorMessages.last();
      await expect(visitor).toContainText(String(heard.text));
      await expect(visitor.locator(".mark")).toHaveText("voice");

      // The answer as text, with the article it comes from, marked as spoken.
      const answer = chat.agentMessages.filter({ has: page.getByRole("link", { name: "How to reset your password" }) });
      await expect(answer).toHaveCount(1);
      await expect(answer).toContainText("password");
      await expect(answer.locator(".who .mark")).toHaveText("voice");

      // The reply read aloud: its audio comes after voice.audio.start, and the widget says so.
      const audioStart = await frame(socket, "voice.audio.start");
      expect(audioStart.format).toEqual({ encoding: "pcm16", sampleRate: 16_000 });
      await expect(chat.voiceState).toHaveText("Speaking…");
      // Voice is on: the bar's buttons end it, not a second microphone button (the conversation's
      // creation mid-turn sent a second ready).
      await expect(chat.mic).toBeHidden();
      await shot(page, testInfo, "voice-speaking", 1280);
      const reply = socket.replies.get(String(audioStart.responseId));
      // All of it is sent as fast as it is made; voice.audio.end comes once it has played out.
      await expect.poll(() => reply?.chunks.length ?? 0).toBeGreaterThan(0);
      const end = await frame(socket, "voice.audio.end", (sent) => sent.responseId === audioStart.responseId, 120_000);
      expect(end.interrupted).toBe(false);
      const audio = Buffer.concat(reply?.chunks ?? []);
      expect(audio.byteLength).toBeGreaterThan(0);
      const seconds = audio.byteLength / 2 / (reply?.rate ?? 1);
      testInfo.annotations.push({ type: "reply audio", description: `${audio.byteLength} bytes, ${seconds.toFixed(1)} s` });
      // It plays for about as long as it lasts (voice.audio.end waits for it by the server's clock).
      expect(end.at - audioStart.at).toBeGreaterThan(seconds * 1000 - 1_000);

      // What the reply's audio says, recognised: the answer about passwords.
      const rate = reply?.rate ?? 16_000;
      const spoken = await recognise(testInfo, "reply", audio.subarray(0, RECOGNISED_REPLY_SECONDS * rate * 2), rate);
      testInfo.annotations.push({ type: "reply recognised", description: spoken });
      expect(spoken).toContain("password");

      // Played out: listening again. The agent's transcript is what was spoken of the stored reply.
      const agentTranscript = await frame(socket, "voice.transcript", (sent) => sent.role === "agent");
      expect(String(agentTranscript.text)).toContain("password");
      await expect(chat.voiceState).toHaveText("Listening…");
      await shot(page, testInfo, "voice-answered", 1280);
      await shot(page, testInfo, "voice-answered", 390);

      // Ending voice: the microphone button is back, focused.
      await chat.voice.getByRole("button", { name: "End voice" }).click();
      await expect(chat.voice).toBeHidden();
      await expect(chat.mic).toBeFocused();
      expect(socket.sent.some((sent) => sent.type === "voice.stop")).toBe(true);
    } finally {
      await browser.close();
    }
  });

  test("speaking over the reply cuts it short: the widget and the panel's transcript mark it interrupted", async ({
    baseURL,
    page: admin,
  }, testInfo) => {
    const wav = await speechFile(testInfo, "interruption", [
      { silenceMs: 1_000, text: QUESTION },
      { silenceMs: GAP_BEFORE_INTERRUPTION_MS, text: INTERRUPTION },
    ]);
    const browser = await launchWithMicrophone(testInfo, wav);
    try {
      const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const socket = watchSocket(page);
      const chat = await openHelpWidget(page, { voiceProcessing: false });
      await chat.mic.click();
      await expect(chat.voiceState).toHaveText("Listening…");
      await shot(page, testInfo, "voice-interrupt-listening", 390);

      const audioStart = await frame(socket, "voice.audio.start");
      const firstReply = String(audioStart.responseId);
      await expect(chat.voiceState).toHaveText("Speaking…");
      await shot(page, testInfo, "voice-interrupt-speaking", 390);

      // The visitor talks over it: the server stops the reply, the page stops playing it and says
      // how much was heard.
      const cut = await frame(socket, "voice.audio.end", (sent) => sent.responseId === firstReply, 30_000);
      expect(cut.interrupted).toBe(true);
      const speechStarts = socket.received.filter((received) => received.type === "voice.speech_started");
      expect(speechStarts).toHaveLength(2);
      testInfo.annotations.push({
        type: "timing",
        description: `reply started ${audioStart.at - (speechStarts[0]?.at ?? 0)} ms after the question began; cut ${cut.at - audioStart.at} ms into it`,
      });
      await expect.poll(() => socket.sent.find((sent) => sent.type === "voice.interrupt")).toBeDefined();
      const interrupt = socket.sent.find((sent) => sent.type === "voice.interrupt");
      expect(interrupt?.playedMs).toEqual(expect.any(Number));
      expect(Number(interrupt?.playedMs)).toBeGreaterThan(0);

      // The stored reply becomes what was heard: the widget replaces it, marked interrupted.
      const shortened = await frame(socket, "message", (sent) => sent.role === "agent" && sent.interrupted === true);
      const full = socket.received.find((received) => received.type === "message" && received.id === shortened.id && !received.interrupted);
      expect(String(shortened.text).length).toBeGreaterThan(0);
      expect(String(shortened.text).length).toBeLessThan(String(full?.text ?? "").length);
      const interrupted = chat.agentMessages.first();
      await expect(interrupted.locator(".cut")).toHaveText("(interrupted)");
      await expect(interrupted).toContainText(String(shortened.text).split(/\s+/).slice(0, 3).join(" "));
      await shot(page, testInfo, "voice-interrupted", 390);
      await shot(page, testInfo, "voice-interrupted", 1280);

      // The interruption is the visitor's next turn.
      const second = await frame(
        socket,
        "voice.transcript",
        (sent) => sent.role === "user" && sent.final === true && String(sent.text).includes("refund"),
      );
      await expect(chat.visitorMessages.last()).toContainText(String(second.text));
      const id = await conversationId(page);
      await chat.voice.getByRole("button", { name: "End voice" }).click();
      await expect(chat.voice).toBeHidden();
      await context.close();

      // The panel's transcript: both of the visitor's messages spoken, the first reply cut short.
      await signIn(admin);
      await admin.goto(`/panel/conversations/${id}`);
      const transcript = admin.getByRole("region", { name: "Transcript" });
      const visitorRows = transcript.locator(".message-user");
      await expect(visitorRows).toHaveCount(2);
      await expect(visitorRows.nth(0).getByRole("img", { name: "Spoken" })).toBeVisible();
      await expect(visitorRows.nth(0)).toContainText("password");
      await expect(visitorRows.nth(1)).toContainText("refund");
      const firstAnswer = transcript.locator(".message-agent").first();
      await expect(firstAnswer.getByRole("img", { name: "Spoken" })).toBeVisible();
      await expect(firstAnswer).toContainText(
        "Interrupted: the reply was cut short (the visitor spoke over it or stopped it); the text is what they heard.",
      );
      await expect(firstAnswer).toContainText(String(shortened.text).split(/\s+/).slice(0, 3).join(" "));
      await admin.setViewportSize({ width: 1280, height: 900 });
      await keepElementScreenshot(transcript, testInfo, "voice-panel-transcript-1280");
      expect(await axeViolations(admin), "transcript at 1280 px").toEqual([]);
      await admin.setViewportSize({ width: 390, height: 844 });
      await keepElementScreenshot(transcript, testInfo, "voice-panel-transcript-390");
      expect(await axeViolations(admin), "transcript at 390 px").toEqual([]);
    } finally {
      await browser.close();
    }
  });

  test("a visitor who refuses the microphone is told so plainly and can still type", async ({ baseURL }, testInfo) => {
    // A microphone exists, but the browser asks the visitor, and the answer is no.
    const launch = testInfo.project.use.launchOptions ?? {};
    const browser = await chromium.launch({ ...launch, args: [...(launch.args ?? []), "--use-fake-device-for-media-stream"] });
    try {
      const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 }, permissions: [] });
      const page = await context.newPage();
      const socket = watchSocket(page);
      const chat = await openHelpWidget(page, { voiceProcessing: true });
      await chat.mic.click();
      const refused = chat.log.locator("li.notice").filter({ hasText: "Microphone access was refused." });
      await expect(refused).toHaveText("Microphone access was refused. You can keep typing.");
      await expect(chat.voice).toBeHidden();
      await expect(chat.mic).toBeVisible();
      // Nothing was asked of the server.
      expect(socket.sent.some((sent) => sent.type === "voice.start")).toBe(false);
      await shot(page, testInfo, "voice-refused", 1280);
      await shot(page, testInfo, "voice-refused", 390);

      await chat.input.fill("How do I get a refund?");
      await chat.input.press("Enter");
      const answer = chat.agentMessages.filter({ has: page.getByRole("link", { name: "Refund policy and how to request a refund" }) });
      await expect(answer).toHaveCount(1);
      await expect(answer.locator(".who")).toHaveText("Assistant");
    } finally {
      await browser.close();
    }
  });
});
