// The embeddable chat widget, built on the SDK and bundled into /widget.js (scripts/bundle-widget.mjs):
//
//   <script src="https://parley.example.com/widget.js" data-agent-id="demo" async></script>
//
// A launcher button and a chat panel in a Shadow DOM (the page's CSS cannot reach them): article
// cards and buttons from rich content, a typing indicator, the handoff notice, the closing line
// and a one-click rating when a person resolves the conversation, keyboard and screen-reader support, a full-screen layout on phones, light and dark themes.
// While it cannot connect (too many chats from the visitor's network, the server down or restarting)
// the launcher still shows and the open chat says why and when it tries again (the SDK's backoff).
// The title, greeting, accent colour and suggested questions or articles come from the agent's
// settings in the panel (the `ready` frame's config); replies show the server's sanitised HTML.
// Voice mode, when the agent offers it (config.voice): a microphone button beside Send; the visitor
// talks, their words appear as their message and the reply is read aloud (they may speak over it).
// Optional attributes: data-title (overrides the agent's title), data-theme ("light" | "dark"; default: the visitor's setting),
// data-page-variables (JSON object of strings), data-voice-processing="off" (no echo cancellation,
// noise suppression or gain control: for test devices). `window.parley` exposes the connection
// (registerTool, track, setPageVariables) and open()/close().
import { offlineStatus, RECONNECTING_TEXT } from "./connection-status.ts";
import {
  type Closing,
  connect,
  type Message,
  type MessageDelta,
  type ParleyConnection,
  type Rating,
  type RatingValue,
  type RichContentItem,
  type VoiceError,
  type VoiceState,
  type WidgetConfig,
} from "./index.ts";
import { webAddress } from "./links.ts";
import { OUTBOX_FULL_DETAILS } from "./outbox.ts";
import { PENDING_MARK_STYLE, PendingMarks } from "./pending-marks.ts";

const STYLE = `
:host { all: initial; --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --accent: #0b57d0; --accent-fg: #ffffff;
  --bubble: #f0f3f6; --mine: #0b57d0; --mine-fg: #ffffff; --notice: #fff8c5; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
:host([data-theme="dark"]) { --bg: #151b23; --fg: #f0f6fc; --muted: #9198a1; --border: #3d444d; --accent: #4493f8; --accent-fg: #0d1117;
  --bubble: #262c36; --mine: #4493f8; --mine-fg: #0d1117; --notice: #3b2e0a; }
@media (prefers-color-scheme: dark) { :host(:not([data-theme="light"])) { --bg: #151b23; --fg: #f0f6fc; --muted: #9198a1; --border: #3d444d;
  --accent: #4493f8; --accent-fg: #0d1117; --bubble: #262c36; --mine: #4493f8; --mine-fg: #0d1117; --notice: #3b2e0a; } }
* { box-sizing: border-box; }
.launcher { position: fixed; right: 20px; bottom: 20px; z-index: 2147483646; width: 56px; height: 56px; border-radius: 50%; border: 0;
  background: var(--accent); color: var(--accent-fg); cursor: pointer; box-shadow: 0 4px 14px rgba(0,0,0,.25); display: grid; place-items: center; }
.launcher:focus-visible, button:focus-visible, a:focus-visible, textarea:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.panel { position: fixed; right: 20px; bottom: 88px; z-index: 2147483647; width: 370px; height: min(600px, calc(100vh - 110px));
  display: flex; flex-direction: column; background: var(--bg); color: var(--fg); border: 1px solid var(--border); border-radius: 12px;
  box-shadow: 0 8px 30px rgba(0,0,0,.25); overflow: hidden; }
.panel[hidden] { display: none; }
.header { display: flex; align-items: center; gap: 8px; padding: 12px 14px; border-bottom: 1px solid var(--border); background: var(--accent); color: var(--accent-fg); }
.header button:focus-visible { outline-color: var(--accent-fg); outline-offset: -3px; }
.header h2 { flex: 1; margin: 0; font-size: 16px; }
.icon { background: none; border: 0; color: inherit; cursor: pointer; font-size: 20px; line-height: 1; padding: 0 8px; border-radius: 6px; min-width: 44px; min-height: 44px; }
.log { flex: 1; overflow-y: auto; padding: 14px; }
.entries { display: flex; flex-direction: column; gap: 10px; margin: 0; padding: 0; list-style: none; }
.msg { max-width: 85%; padding: 8px 12px; border-radius: 12px; background: var(--bubble); white-space: pre-wrap; overflow-wrap: anywhere; }
.msg.html { white-space: normal; } .msg.html .body > :first-child { margin-top: 0; } .msg.html .body > :last-child { margin-bottom: 0; }
.msg.html p, .msg.html ul, .msg.html ol, .msg.html pre { margin: 0 0 8px; } .msg.html ul, .msg.html ol { padding-left: 20px; }
.msg.html pre { overflow-x: auto; } .msg.html a { color: inherit; } .msg.html h3, .msg.html h4 { font-size: 15px; margin: 0 0 6px; }
.suggestions { display: flex; flex-direction: column; align-items: flex-start; gap: 6px; margin: 0; padding: 0; list-style: none; }
.msg.user { align-self: flex-end; background: var(--mine); color: var(--mine-fg); }
.msg.human .who, .msg.agent .who { display: block; font-size: 12px; color: var(--muted); margin-bottom: 2px; }
.notice { align-self: stretch; font-size: 13px; padding: 8px 10px; border-radius: 8px; background: var(--notice); }
.cards { display: flex; flex-direction: column; gap: 6px; margin-top: 8px; }
.card { display: block; padding: 8px 10px; border: 1px solid var(--border); border-radius: 8px; color: var(--accent); text-decoration: none; background: var(--bg); }
.card:hover { text-decoration: underline; }
.actions { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 8px; }
.action { border: 1px solid var(--accent); color: var(--fg); background: transparent; border-radius: 16px; padding: 4px 12px; cursor: pointer; font: inherit; text-decoration: none; text-align: left; }
.action:disabled { border-color: var(--border); color: var(--muted); cursor: not-allowed; }
.helpful { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin-top: 8px; font-size: 13px; color: var(--muted); }
.helpful button { border: 1px solid var(--border); color: var(--fg); background: var(--bg); border-radius: 12px; padding: 2px 10px; cursor: pointer; font: inherit; }
.closing { align-self: stretch; display: flex; flex-direction: column; gap: 8px; padding: 10px 12px; border: 1px solid var(--border); border-radius: 10px; }
.closing p { margin: 0; }
.rating { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin: 0; padding: 0; border: 0; }
.rating legend { font-weight: 600; padding: 0; margin-bottom: 6px; }
.rating button { min-height: 44px; min-width: 72px; border: 1px solid var(--border); color: var(--fg); background: var(--bg); border-radius: 22px; padding: 6px 14px; cursor: pointer; font: inherit; }
.rating button[aria-pressed="true"] { background: var(--accent); color: var(--accent-fg); border-color: var(--accent); }
.rating button:disabled { cursor: not-allowed; opacity: .6; }
.comment { display: flex; flex-direction: column; gap: 6px; }
.comment[hidden] { display: none; }
.comment label { font-size: 13px; color: var(--muted); }
.comment textarea { height: 64px; flex: none; }
.comment button { align-self: flex-start; min-height: 44px; border: 0; border-radius: 8px; background: var(--accent); color: var(--accent-fg); padding: 0 14px; font: inherit; cursor: pointer; }
.rated { font-size: 13px; color: var(--muted); }
.email { align-self: stretch; display: flex; flex-direction: column; gap: 8px; padding: 10px 12px; border: 1px solid var(--border); border-radius: 10px; }
.email p { margin: 0; }
.email form { padding: 0; border: 0; flex-wrap: wrap; }
.email input { flex: 1 1 180px; min-height: 44px; font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--border); border-radius: 8px; padding: 8px; }
.email input:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.email .send, .email .later { min-height: 44px; }
.email .later { border: 1px solid var(--border); border-radius: 8px; background: var(--bg); color: var(--fg); padding: 0 14px; font: inherit; cursor: pointer; }
.email .problem { color: #b3261e; font-size: 13px; }
.email .problem:empty { display: none; }
.email > .later { align-self: flex-start; }
:host([data-theme="dark"]) .email .problem { color: #ff938a; }
.offline { display: flex; align-items: center; gap: 8px; font-size: 13px; }
.offline.on { padding: 8px 10px; border-top: 1px solid var(--border); background: var(--notice); }
.offline p { flex: 1; margin: 0; }
.offline button { min-height: 32px; border: 1px solid var(--fg); border-radius: 8px; background: transparent; color: var(--fg); padding: 0 10px; font: inherit; cursor: pointer; }
.offline button[hidden] { display: none; }
.send:disabled, .mic:disabled { opacity: .55; cursor: not-allowed; }
.typing { padding: 0 14px 8px; color: var(--muted); font-size: 13px; min-height: 1.45em; }
form { display: flex; gap: 8px; padding: 10px; border-top: 1px solid var(--border); }
textarea { flex: 1; resize: none; font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--border); border-radius: 8px; padding: 8px; height: 42px; }
.send { border: 0; border-radius: 8px; background: var(--accent); color: var(--accent-fg); padding: 0 14px; font: inherit; cursor: pointer; }
.mic { width: 42px; border: 1px solid var(--border); border-radius: 8px; background: var(--bg); color: var(--fg); cursor: pointer; display: grid; place-items: center; padding: 0; }
.mic[hidden], .voice[hidden] { display: none; }
.voice { display: flex; align-items: center; gap: 8px; padding: 8px 10px; border-top: 1px solid var(--border); }
.voice .state { flex: 1; font-weight: 600; }
.voice .state::before { content: ""; display: inline-block; width: 10px; height: 10px; margin-right: 8px; border-radius: 50%; background: var(--accent); vertical-align: 0; }
.voice.muted .state::before { background: var(--muted); }
.vbtn { border: 1px solid var(--border); color: var(--fg); background: var(--bg); border-radius: 16px; padding: 4px 12px; cursor: pointer; font: inherit; font-size: 14px; }
.vbtn[aria-pressed="true"] { background: var(--bubble); }
.mark { font-size: 11px; text-transform: uppercase; letter-spacing: .04em; opacity: .8; margin-left: 6px; }
.msg.user .mark { display: block; margin: 2px 0 0; text-align: right; }
.cut { display: block; font-size: 13px; color: var(--muted); margin-top: 4px; }
${PENDING_MARK_STYLE}
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 480px) { .panel { inset: 0; width: 100%; height: 100%; border-radius: 0; border: 0; } }
@media (prefers-reduced-motion: no-preference) { .panel { animation: rise .15s ease-out; } @keyframes rise { from { opacity: 0; transform: translateY(8px); } }
  .voice.on .state::before { animation: pulse 1.2s ease-in-out infinite; } @keyframes pulse { 50% { opacity: .35; } } }
`;

/** How long "<name> is typing…" stays without a new signal (the panel signals every 3 s). */
const PERSON_TYPING_MS = 6_000;
/** The handoff notice when the server words none (core's handoff.ts words it, with the usual reply time). */
const HANDOFF_NOTICE = "A person will reply here.";
const KEEP_TYPING = "You can keep typing.";
const RATINGS: ReadonlyArray<[RatingValue, string]> = [
  ["good", "Good"],
  ["okay", "Okay"],
  ["bad", "Bad"],
];
const RATING_NAMES: Record<RatingValue, string> = { good: "Good", okay: "Okay", bad: "Bad" };
/** The server's bound for a rating's words (core's RATING_COMMENT_MAX_CHARS). */
const RATING_COMMENT_MAX_CHARS = 1_000;
const VOICE_FAILURES: Record<VoiceError["code"], string> = {
  denied: "Microphone access was refused.",
  no_microphone: "No microphone was found.",
  unsupported: "Voice is not available in this browser.",
  failed: "The microphone could not be started.",
  server: "",
};
const VOICE_STATES: Record<VoiceState, string> = {
  listening: "Listening…",
  thinking: "Thinking…",
  speaking: "Speaking…",
  stopped: "",
};
/** Error frames whose details read well to a visitor (the voice ones). */
const SPOKEN_ERRORS = new Set(["Voice unavailable", "Voice limit reached", "Not understood"]);
const MIC_ICON =
  '<svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor"><path d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.92V21h2v-3.08A7 7 0 0 0 19 11h-2z"/></svg>';

interface WidgetApi {
  connection: ParleyConnection | null;
  open(): void;
  close(): void;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, unknown> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node: HTMLElementTagNameMap[K] = Object.assign(document.createElement(tag), props);
  if (text !== undefined) node.textContent = text;
  return node;
}

function start(script: HTMLScriptElement): WidgetApi {
  const agentId = script.dataset.agentId ?? "";
  const baseUrl = new URL(script.src, location.href).origin;
  let title = script.dataset.title ?? "Chat with us";
  let pageVariables: Record<string, string> = {};
  try {
    pageVariables = script.dataset.pageVariables ? (JSON.parse(script.dataset.pageVariables) as Record<string, string>) : {};
  } catch {
    console.warn("parley: data-page-variables is not JSON");
  }

  const host = element("div");
  host.setAttribute("data-parley-widget", "");
  if (script.dataset.theme) host.setAttribute("data-theme", script.dataset.theme);
  const root = host.attachShadow({ mode: "open" });
  // The host page's CSP nonce, when its script tag has one: a policy without 'unsafe-inline' for
  // styles then still applies the widget's one style element.
  root.append(element("style", { nonce: script.nonce }, STYLE));

  const launcher = element("button", { className: "launcher", type: "button" });
  launcher.setAttribute("aria-label", "Open chat");
  launcher.setAttribute("aria-expanded", "false");
  launcher.setAttribute("aria-controls", "parley-panel");
  launcher.innerHTML =
    '<svg width="26" height="26" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z"/></svg>';

  const panel = element("section", { className: "panel", id: "parley-panel", hidden: true });
  panel.setAttribute("role", "dialog");
  panel.setAttribute("aria-label", title);
  // A plain box, not <header>: inside the page's landmarks it would be a second banner.
  const header = element("div", { className: "header" });
  const heading = element("h2", {}, title);
  const closeButton = element("button", { className: "icon", type: "button" }, "×");
  closeButton.setAttribute("aria-label", "Close chat");
  // Once the visitor gave an address: the transcript by mail.
  const transcriptButton = element("button", { className: "icon", type: "button", hidden: true }, "✉");
  transcriptButton.setAttribute("aria-label", "Email me the transcript");
  transcriptButton.title = "Email me the transcript";
  header.append(heading, transcriptButton, closeButton);
  // The live region scrolls; the list inside holds the entries (a list's own role cannot be "log").
  const logBox = element("div", { className: "log" });
  logBox.setAttribute("role", "log");
  logBox.setAttribute("aria-live", "polite");
  logBox.setAttribute("aria-label", "Conversation");
  const log = element("ol", { className: "entries" });
  logBox.append(log);
  const typing = element("div", { className: "typing" });
  typing.setAttribute("aria-live", "polite");
  const form = element("form");
  const label = element("label", { className: "sr", htmlFor: "parley-input" }, "Your message");
  const input = element("textarea", { id: "parley-input", placeholder: "Write a message…", rows: 1, maxLength: 10_000 });
  const send = element("button", { className: "send", type: "submit" }, "Send");
  const mic = element("button", { className: "mic", type: "button", hidden: true, innerHTML: MIC_ICON });
  mic.setAttribute("aria-label", "Talk to the agent by voice");
  form.append(label, input, mic, send);
  // Voice mode's bar: what is happening (read out as it changes), mute, end.
  const voiceBar = element("div", { className: "voice", hidden: true });
  voiceBar.setAttribute("role", "group");
  voiceBar.setAttribute("aria-label", "Voice conversation");
  const voiceState = element("span", { className: "state" });
  voiceState.setAttribute("aria-live", "polite");
  const muteButton = element("button", { className: "vbtn", type: "button" }, "Mute");
  muteButton.setAttribute("aria-pressed", "false");
  const endButton = element("button", { className: "vbtn", type: "button" }, "End voice");
  voiceBar.append(voiceState, muteButton, endButton);
  // Why the chat is offline and when it tries again (the socket closed, refused or out of reach).
  // Always in the page (empty while online): a live region that appears with its words is often not read.
  const offlineBar = element("div", { className: "offline" });
  const offlineText = element("p", { id: "parley-offline" });
  offlineText.setAttribute("role", "status");
  const retryButton = element("button", { type: "button", hidden: true }, "Try now");
  offlineBar.append(offlineText, retryButton);
  panel.append(header, logBox, typing, offlineBar, voiceBar, form);
  root.append(panel, launcher);
  document.body.append(host);
  // A framework that renders the page's <body> (Next.js on a client-side navigation) may drop
  // nodes it did not render: the launcher is put back, so the chat never silently disappears.
  const keepAttached = () => {
    if (!host.isConnected) document.body.append(host);
  };
  new MutationObserver(keepAttached).observe(document.body, { childList: true });

  let connection: ParleyConnection | null = null;
  const shown = new Set<string>();
  let handoffShown = false;
  /** Once a person has been asked for, "talk to a person" buttons are disabled. */
  let handedOff = false;
  let configApplied = false;
  let suggestionList: HTMLElement | null = null;
  /** The team member who has the conversation (shown on their replies), or null. */
  let person: string | null = null;
  /** Shown messages by id: a spoken reply cut short comes again with the text that was heard. */
  const shownItems = new Map<string, HTMLElement>();
  /** Voice mode: on (from the click until "stopped"), the server's state, a reply playing aloud. */
  let voiceOn = false;
  /** Counts startVoice() calls: a late failure of an earlier one must not end a newer one. */
  let voiceAttempts = 0;
  let voiceOffered = false;
  let serverState: VoiceState = "stopped";
  let playing = false;
  /** Email: the server sends it (else never asked), the address given, and the prompt's card while shown. */
  let emailEnabled = false;
  let emailAddress: string | null = null;
  let emailCard: HTMLElement | null = null;
  /** The socket is down and waiting to come back (the offline bar shows). */
  let offline = false;
  /** "Sending…" / "Not sent — retrying" under the visitor's messages until the server has them. */
  const pendingMarks = new PendingMarks();
  /** The notice that the outbox is full, while shown (one at a time). */
  let outboxFullNotice: HTMLElement | null = null;

  function scrollDown() {
    logBox.scrollTop = logBox.scrollHeight;
  }

  /**
   * Offline (the socket closed and a new try is waiting or under way): the bar says why, and
   * nothing can be sent until the chat is back; what the visitor typed stays in the box. `null`:
   * back online (or closed for good, which the conversation's notice says).
   */
  function showOffline(text: string | null, canRetry = false) {
    const focusInBar = root.activeElement !== null && offlineBar.contains(root.activeElement);
    // The bar takes room from the conversation: its latest message (maybe waiting to be sent) stays in view.
    const atBottom = logBox.scrollTop + logBox.clientHeight >= logBox.scrollHeight - 4;
    offline = text !== null;
    offlineBar.classList.toggle("on", offline);
    offlineText.textContent = text ?? "";
    retryButton.hidden = !canRetry;
    send.disabled = offline;
    mic.disabled = offline;
    if (offline) input.setAttribute("aria-describedby", offlineText.id);
    else input.removeAttribute("aria-describedby");
    if (focusInBar && (!offline || !canRetry)) input.focus();
    if (atBottom) scrollDown();
  }

  function notice(text: string) {
    log.append(element("li", { className: "notice" }, text));
    scrollDown();
  }

  /** Once per handoff: what is true until a person joins (the server's words, with the usual reply time). */
  function showHandoff() {
    setHandedOff(true);
    if (handoffShown) return;
    handoffShown = true;
    notice(connection?.notice ?? HANDOFF_NOTICE);
  }

  function setHandedOff(value: boolean) {
    handedOff = value;
    for (const button of root.querySelectorAll<HTMLButtonElement>('.action[data-action="handoff"]')) button.disabled = value;
  }

  /** The agent's settings, once per page: title, accent, and on a new conversation its greeting and suggestions. */
  function applyConfig(config: WidgetConfig, conversationStarted: boolean) {
    // Every ready: the agent's voice may have been turned on or off meanwhile.
    voiceOffered = config.voice === true;
    mic.hidden = !voiceOffered || voiceOn;
    if (configApplied) return;
    configApplied = true;
    if (!script.dataset.title) {
      title = config.title;
      heading.textContent = title;
      panel.setAttribute("aria-label", title);
    }
    host.style.setProperty("--accent", config.accentColor);
    host.style.setProperty("--accent-fg", config.accentTextColor);
    host.style.setProperty("--mine", config.accentColor);
    host.style.setProperty("--mine-fg", config.accentTextColor);
    if (conversationStarted) return;
    if (config.greeting) log.prepend(element("li", { className: "msg greeting" }, config.greeting));
    if (config.suggestions.length > 0) showSuggestions(config);
  }

  function showSuggestions(config: WidgetConfig) {
    const item = element("li", { className: "suggestions-item" });
    const list = element("ul", { className: "suggestions" });
    list.setAttribute("aria-label", "Suggestions");
    for (const suggestion of config.suggestions) {
      const entry = element("li");
      if (suggestion.type === "article") {
        entry.append(
          element(
            "a",
            { className: "action", href: webAddress(suggestion.url) ?? "#", target: "_blank", rel: "noopener" },
            suggestion.title,
          ),
        );
      } else {
        const button = element("button", { className: "action", type: "button" }, suggestion.text);
        button.addEventListener("click", () => sendText(suggestion.text));
        entry.append(button);
      }
      list.append(entry);
    }
    item.append(list);
    log.append(item);
    suggestionList = item;
    scrollDown();
  }

  function richContent(items: RichContentItem[]): HTMLElement[] {
    const nodes: HTMLElement[] = [];
    for (const item of items) {
      if (item.type === "articles" && item.articles.length > 0) {
        const cards = element("div", { className: "cards" });
        for (const article of item.articles) {
          const card = element(
            "a",
            { className: "card", href: webAddress(article.url) ?? "#", target: "_blank", rel: "noopener" },
            article.title,
          );
          card.setAttribute("data-article-id", article.id);
          cards.append(card);
        }
        nodes.push(cards);
      } else if (item.type === "buttons" && item.buttons.length > 0) {
        const actions = element("div", { className: "actions" });
        for (const button of item.buttons) {
          const action = element("button", { className: "action", type: "button" }, button.label);
          action.setAttribute("data-action", button.action);
          if (button.action === "handoff") action.disabled = handedOff;
          action.addEventListener("click", () => {
            if (button.action === "url") {
              const address = webAddress(button.value);
              if (address) window.open(address, "_blank", "noopener");
            } else sendText(button.value ?? (button.action === "handoff" ? "I'd like to talk to a person" : button.label));
          });
          actions.append(action);
        }
        nodes.push(actions);
      }
    }
    return nodes;
  }

  /** Replies being written (LLM agents), by the clientMessageId they answer: shown as they grow. */
  const partial = new Map<string, { item: HTMLElement; text: Text }>();

  function showDelta(delta: MessageDelta) {
    const key = delta.clientMessageId ?? "";
    let shownPartial = partial.get(key);
    if (!shownPartial) {
      const item = element("li", { className: "msg agent partial" });
      // Screen readers hear the reply once, complete, rather than every piece of it.
      item.setAttribute("aria-busy", "true");
      const text = document.createTextNode("");
      item.append(element("span", { className: "who" }, "Assistant"), text);
      log.append(item);
      shownPartial = { item, text };
      partial.set(key, shownPartial);
    }
    shownPartial.text.data = delta.text;
    scrollDown();
  }

  function dropPartial(clientMessageId: string | undefined) {
    const key = clientMessageId ?? "";
    partial.get(key)?.item.remove();
    partial.delete(key);
  }

  function showMessage(message: Message) {
    dropPartial(message.clientMessageId);
    const before = shownItems.get(message.id);
    // Shown already, unless it is a spoken reply now cut to what was heard.
    if (shown.has(message.id) && !(message.interrupted && before && !before.querySelector(".cut"))) return;
    if (message.role === "human") typing.textContent = "";
    shown.add(message.id);
    const item = element("li", { className: `msg ${message.role}` });
    if (message.role !== "user") {
      const who = element("span", { className: "who" }, message.role === "human" ? (person ?? "Team") : "Assistant");
      if (message.voice) who.append(voiceMark());
      item.append(who);
    }
    if (message.html !== undefined) {
      // Sanitised by the server (the help centre's Markdown renderer and sanitiser).
      item.classList.add("html");
      item.append(element("div", { className: "body", innerHTML: message.html }));
    } else item.append(document.createTextNode(message.text));
    if (message.interrupted) item.append(element("span", { className: "cut" }, "(interrupted)"));
    item.append(...richContent(message.richContent));
    if (message.role === "user" && message.voice) item.append(voiceMark());
    if (message.role === "agent" && message.richContent.some((content) => content.type === "articles" && content.articles.length > 0))
      item.append(helpfulQuestion(message.id));
    shownItems.set(message.id, item);
    if (before) before.replaceWith(item);
    else log.append(item);
    scrollDown();
  }

  function voiceMark(): HTMLElement {
    return element("span", { className: "mark" }, "voice");
  }

  /** The visitor's words, recognised: their message in the conversation. */
  function showSpoken(text: string) {
    suggestionList?.remove();
    suggestionList = null;
    const mine = element("li", { className: "msg user" }, text);
    mine.append(voiceMark());
    log.append(mine);
    scrollDown();
  }

  function showVoiceState() {
    const muted = muteButton.getAttribute("aria-pressed") === "true";
    voiceBar.classList.toggle("muted", muted);
    voiceBar.classList.toggle("on", serverState !== "stopped" && !muted);
    if (serverState === "stopped") voiceState.textContent = "Starting…";
    else if (playing) voiceState.textContent = VOICE_STATES.speaking;
    else if (muted && serverState === "listening") voiceState.textContent = "Microphone muted";
    else voiceState.textContent = VOICE_STATES[serverState];
  }

  async function startVoice() {
    const chat = ensureConnection();
    const attempt = ++voiceAttempts;
    voiceOn = true;
    serverState = "stopped";
    muteButton.setAttribute("aria-pressed", "false");
    mic.hidden = true;
    voiceBar.hidden = false;
    showVoiceState();
    endButton.focus();
    try {
      await chat.voice.start({ audioProcessing: script.dataset.voiceProcessing !== "off" });
    } catch (error) {
      // Ended meanwhile (End voice, the panel closed), perhaps started again since: nothing to undo.
      if (attempt !== voiceAttempts || !voiceOn) return;
      const code = (error as VoiceError).code;
      // A refusal from the server is shown as its error frame.
      if (code !== "server") notice(`${VOICE_FAILURES[code] ?? VOICE_FAILURES.failed} ${KEEP_TYPING}`);
      endVoice();
    }
  }

  /** Back to text only (the end button, the server's "stopped", closing the panel). */
  function endVoice() {
    if (!voiceOn) return;
    voiceOn = false;
    connection?.voice.stop();
    const focused = root.activeElement !== null && voiceBar.contains(root.activeElement);
    voiceBar.hidden = true;
    mic.hidden = !voiceOffered;
    if (focused) mic.focus();
  }

  /** The card the resolved conversation ends with: the closing line, the rating, optional words. */
  let closingCard: { item: HTMLElement; update(rating: Rating | null): void } | null = null;

  /**
   * A person resolved the conversation: the server's closing line, then "How did we do?" with three
   * buttons (one click rates), and a box for words afterwards. Rating again replaces it until the
   * server's changeableUntil. `null`: it was reopened, so only the line stays (as history).
   */
  function showClosing(closing: Closing | null) {
    if (!closing) {
      if (closingCard) for (const part of closingCard.item.querySelectorAll(".rating, .comment")) part.remove();
      closingCard = null;
      return;
    }
    closingCard?.item.remove();
    const item = element("li", { className: "closing" });
    const rating = element("fieldset", { className: "rating" });
    rating.append(element("legend", {}, "How did we do?"));
    const words = element("textarea", { id: "parley-rating-comment", rows: 2, maxLength: RATING_COMMENT_MAX_CHARS });
    const buttons = RATINGS.map(([value, label]) => {
      const button = element("button", { type: "button" }, label);
      button.dataset.rating = value;
      button.setAttribute("aria-pressed", "false");
      // Changing the rating keeps words already given (or sends the ones typed).
      button.addEventListener("click", () =>
        connection?.rate(value, words.value.trim() || connection?.closing?.rating?.comment || undefined),
      );
      rating.append(button);
      return button;
    });
    const comment = element("div", { className: "comment", hidden: true });
    const commentLabel = element("label", { htmlFor: "parley-rating-comment" }, "Anything you would like to add? (optional)");
    const sendWords = element("button", { type: "button" }, "Send comment");
    sendWords.addEventListener("click", () => {
      const chosen = connection?.closing?.rating?.rating;
      if (chosen && words.value.trim()) connection?.rate(chosen, words.value);
    });
    comment.append(commentLabel, words, sendWords);
    const status = element("p", { className: "rated" });
    status.setAttribute("role", "status");
    item.append(element("p", {}, closing.notice), rating, comment, status);
    log.append(item);
    const update = (given: Rating | null) => {
      const open = given === null || Date.now() < Date.parse(given.changeableUntil);
      for (const button of buttons) {
        button.setAttribute("aria-pressed", String(given?.rating === button.dataset.rating));
        button.disabled = !open;
      }
      if (!given) return;
      status.textContent = given.comment
        ? `Thanks! You rated this conversation “${RATING_NAMES[given.rating]}” and told us more.`
        : `Thanks! You rated this conversation “${RATING_NAMES[given.rating]}”.`;
      // Words once: after they are sent the box goes (rating again keeps them unless new ones are written).
      comment.hidden = given.comment !== null || !open;
      // The card grew (the thanks, the comment box): it stays in view at the end of the log.
      scrollDown();
    };
    update(closing.rating);
    closingCard = { item, update };
    scrollDown();
  }

  /**
   * Asks once for an address (optional): replies written while the visitor is away are mailed to
   * it, with a link back here. Only when the server sends email and none was given.
   */
  function askEmail() {
    if (!emailEnabled || emailAddress || emailCard) return;
    const item = element("li", { className: "email" });
    item.setAttribute("aria-label", "Your email address");
    const text = element("p", { id: "parley-email-hint" }, "Leave your email and we’ll send the reply there if you’re away. (optional)");
    const emailForm = element("form");
    emailForm.noValidate = true;
    const field = element("input", {
      id: "parley-email",
      type: "email",
      autocomplete: "email",
      maxLength: 254,
      placeholder: "you@example.com",
    });
    field.setAttribute("aria-describedby", "parley-email-hint");
    const fieldLabel = element("label", { className: "sr", htmlFor: "parley-email" }, "Email address");
    const save = element("button", { className: "send", type: "submit" }, "Save email");
    const later = element("button", { className: "later", type: "button" }, "No thanks");
    const problem = element("p", { className: "problem" });
    problem.setAttribute("role", "alert");
    emailForm.append(fieldLabel, field, save, later);
    emailForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const value = field.value.trim();
      if (!value || !field.checkValidity()) {
        problem.textContent = "Enter an email address like name@example.com.";
        field.setAttribute("aria-invalid", "true");
        field.focus();
        return;
      }
      problem.textContent = "";
      field.removeAttribute("aria-invalid");
      connection?.setEmail(value);
    });
    later.addEventListener("click", () => {
      item.remove();
      input.focus();
    });
    item.append(text, emailForm, problem);
    log.append(item);
    emailCard = item;
    scrollDown();
  }

  /** The address was stored: the card says where replies go, and the transcript can be mailed. */
  function emailSaved(address: string) {
    emailAddress = address;
    transcriptButton.hidden = false;
    if (!emailCard) return;
    const done = element("p", {}, `Thanks! If you’re away, we’ll email replies to ${address}.`);
    done.setAttribute("role", "status");
    const transcript = element("button", { className: "later", type: "button" }, "Email me the transcript");
    transcript.addEventListener("click", () => connection?.mailTranscript());
    emailCard.replaceChildren(done, transcript);
  }

  /** "Was this helpful?" under an answer: the visitor's answer goes to the team, then says thanks. */
  function helpfulQuestion(messageId: string): HTMLElement {
    const row = element("div", { className: "helpful" });
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", "Was this answer helpful?");
    row.append(element("span", {}, "Helpful?"));
    for (const [label, helpful] of [
      ["Yes", true],
      ["No", false],
    ] as const) {
      const button = element("button", { type: "button" }, label);
      button.addEventListener("click", () => {
        connection?.feedback(messageId, helpful);
        const thanks = element("span", {}, "Thanks for your answer.");
        thanks.setAttribute("role", "status");
        row.replaceChildren(thanks);
      });
      row.append(button);
    }
    return row;
  }

  function ensureConnection(): ParleyConnection {
    if (connection) return connection;
    // The page's address without its query and fragment (which may carry tokens): what the team sees.
    const chat = connect({ agentId, baseUrl, pageVariables, pageUrl: `${location.origin}${location.pathname}` });
    connection = chat;
    api.connection = chat;
    let firstReady = true;
    // A first message that asks for a person: its `ready` comes before the agent's reply, and the
    // handoff notice reads after that reply.
    let handoffAfterReply = false;
    chat.on("ready", (ready) => {
      // After a reconnect the visitor's own messages are on screen already (sent from here).
      for (const message of ready.messages) if (firstReady || message.role !== "user") showMessage(message);
      if (ready.config) applyConfig(ready.config, ready.conversationId !== null);
      emailEnabled = ready.email?.enabled === true;
      if (ready.email?.address) emailSaved(ready.email.address);
      // Resumed while waiting for a person: ask again (the server asks live on a handoff).
      if (firstReady && ready.status === "escalated" && !ready.person && ready.conversationId !== null) askEmail();
      const created = !firstReady && ready.messages.length === 0;
      firstReady = false;
      if (ready.status === "escalated") setHandedOff(true);
      if (ready.closing) showClosing(ready.closing);
      if (ready.status === "escalated" && !ready.person) {
        if (created) handoffAfterReply = true;
        else showHandoff();
      }
    });
    chat.on("ack", (ack) => pendingMarks.settle(ack.clientMessageId));
    chat.on("message", (message) => {
      pendingMarks.settle(message.clientMessageId);
      showMessage(message);
      if (handoffAfterReply && message.role === "agent") {
        handoffAfterReply = false;
        showHandoff();
      }
    });
    chat.on("delta", showDelta);
    chat.on("closing", showClosing);
    chat.on("rating", (rating) => closingCard?.update(rating));
    chat.on("emailPrompt", askEmail);
    chat.on("email", emailSaved);
    chat.on("transcript", (address) => notice(`We sent the transcript to ${address}.`));
    chat.on("typing", (active) => {
      typing.textContent = active ? "Assistant is typing…" : "";
    });
    // A team member's typing: shown until their reply arrives or they stop for a few seconds.
    let personTypingTimer: ReturnType<typeof setTimeout> | undefined;
    chat.on("personTyping", (name) => {
      typing.textContent = `${name} is typing…`;
      clearTimeout(personTypingTimer);
      personTypingTimer = setTimeout(() => {
        typing.textContent = "";
      }, PERSON_TYPING_MS);
    });
    // Only a person who took the conversation over or replied is announced (an assignment is not).
    chat.on("person", (name) => {
      person = name;
      if (name) notice(chat.notice ?? `${name} from our team has joined the conversation.`);
    });
    chat.on("status", (status) => {
      setHandedOff(status === "escalated");
      if (status === "escalated" && !person) showHandoff();
      else handoffShown = false;
    });
    chat.on("error", (error) => {
      dropPartial(error.clientMessageId);
      pendingMarks.refuse(error.clientMessageId);
      const problem = emailCard?.querySelector(".problem");
      // The address refused by the server (its words), shown under the field.
      if (problem && !emailAddress && error.details?.startsWith("email:"))
        problem.textContent = "Enter an email address like name@example.com.";
      else if (SPOKEN_ERRORS.has(error.error)) notice(error.details ?? error.error);
      else if (error.error !== "Invalid resume token")
        notice(error.retryAfter ? `${error.error}. Try again in ${error.retryAfter} s.` : error.error);
    });
    chat.on("voice.state", (state) => {
      serverState = state;
      if (state === "stopped") {
        playing = false;
        endVoice();
      } else showVoiceState();
    });
    chat.on("voice.playing", (value) => {
      playing = value;
      if (voiceOn) showVoiceState();
    });
    chat.on("voice.transcript", (transcript) => {
      if (transcript.role === "user" && transcript.final && transcript.text) showSpoken(transcript.text);
    });
    chat.on("connection", (change) => {
      if (change.state === "open" || change.retryInMs !== undefined) pendingMarks.setOnline(change.state === "open");
      if (change.state === "open") showOffline(null);
      else if (change.state === "closed") {
        showOffline(null);
        if (change.code) notice(`The chat is unavailable (${change.reason ?? change.code}).`);
      } else if (change.retryInMs !== undefined) {
        const status = offlineStatus(change.code, change.retryInMs);
        showOffline(status.text, status.canRetryNow);
      }
      // A new try after a wait (the first try of all says nothing).
      else if (offline) showOffline(RECONNECTING_TEXT);
    });
    return chat;
  }

  /** Sends the visitor's words; false when they must wait (the outbox is full): they stay in the box. */
  function sendText(text: string): boolean {
    const trimmed = text.trim();
    if (!trimmed) return true;
    const chat = ensureConnection();
    if (!chat.canSend) {
      outboxFullNotice?.remove();
      outboxFullNotice = element("li", { className: "notice" }, OUTBOX_FULL_DETAILS);
      log.append(outboxFullNotice);
      scrollDown();
      return false;
    }
    const clientMessageId = chat.send(trimmed);
    suggestionList?.remove();
    suggestionList = null;
    const mine = element("li", { className: "msg user" }, trimmed);
    pendingMarks.add(mine, clientMessageId);
    log.append(mine);
    scrollDown();
    return true;
  }

  function open() {
    keepAttached();
    ensureConnection();
    panel.hidden = false;
    launcher.setAttribute("aria-expanded", "true");
    launcher.setAttribute("aria-label", "Close chat");
    input.focus();
  }

  function close() {
    // Nobody talks to a closed chat: the microphone is released.
    endVoice();
    panel.hidden = true;
    launcher.setAttribute("aria-expanded", "false");
    launcher.setAttribute("aria-label", "Open chat");
    launcher.focus();
  }

  launcher.addEventListener("click", () => (panel.hidden ? open() : close()));
  closeButton.addEventListener("click", close);
  transcriptButton.addEventListener("click", () => connection?.mailTranscript());
  mic.addEventListener("click", () => void startVoice());
  endButton.addEventListener("click", endVoice);
  muteButton.addEventListener("click", () => {
    const muted = muteButton.getAttribute("aria-pressed") !== "true";
    muteButton.setAttribute("aria-pressed", String(muted));
    if (muted) connection?.voice.mute();
    else connection?.voice.unmute();
    showVoiceState();
  });
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    // Offline: the words stay in the box until the chat is back (Enter does nothing).
    if (offline) return;
    if (sendText(input.value)) input.value = "";
  });
  retryButton.addEventListener("click", () => connection?.reconnectNow());

  const api: WidgetApi = { connection: null, open, close };
  // A link from a reply mail (#parley-resume=<token>, signed by the server for one conversation):
  // resume that conversation, open the chat, and take the token out of the address bar.
  const fromMail = RESUME_HASH.exec(location.hash);
  if (fromMail?.[1]) {
    try {
      localStorage.setItem(`parley:${agentId}:resume`, fromMail[1]);
    } catch {
      // storage blocked: the link cannot resume
    }
    dropResumeToken();
    // A framework's router that hydrates after this script (Next.js does) writes back the address
    // it read at load, token included: drop it again once the page has loaded and once resumed.
    addEventListener("load", () => setTimeout(dropResumeToken, 0), { once: true });
    open();
    ensureConnection().on("ready", () => setTimeout(dropResumeToken, 0));
    return api;
  }
  // A visitor coming back to a conversation reconnects at once (to see replies that came meanwhile).
  try {
    if (localStorage.getItem(`parley:${agentId}:resume`)) ensureConnection();
  } catch {
    // storage blocked: connect on first open
  }
  return api;
}

const RESUME_HASH = /^#parley-resume=([A-Za-z0-9_.-]{1,2000})$/;

/** Takes a reply mail's resume token out of the address bar, keeping the page's history state (a router's place). */
function dropResumeToken(): void {
  if (RESUME_HASH.test(location.hash)) history.replaceState(history.state, "", `${location.pathname}${location.search}`);
}

const script = document.currentScript as HTMLScriptElement | null;
if (script?.dataset.agentId) {
  const boot = () => {
    (window as unknown as { parley?: WidgetApi }).parley = start(script);
  };
  if (document.body) boot();
  else document.addEventListener("DOMContentLoaded", boot, { once: true });
} else {
  console.warn('parley: add data-agent-id="<your agent id>" to the widget script tag');
}
