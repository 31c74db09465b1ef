// A small structured logger (JSON lines to stdout/stderr). Callers pass only safe fields: never
// message text at info level, never keys, passwords or tokens. The level is set once at start-up
// from the app's settings (configureLogging); core reads no environment itself.

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export const LOG_LEVELS = Object.keys(LEVELS) as [LogLevel, ...LogLevel[]];
export type LogLevel = keyof typeof LEVELS;
type Level = Exclude<LogLevel, "silent">;

let configured: LogLevel = "info";

/** Sets the lowest level written (the app at start-up, from LOG_LEVEL; the test setup). */
export function configureLogging(options: { level: LogLevel }): void {
  configured = options.level;
}

function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (LEVELS[level] < LEVELS[configured]) return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), message, ...fields });
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(`${line}\n`);
}

export const logger = {
  debug: (message: string, fields?: Record<string, unknown>) => log("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => log("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => log("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => log("error", message, fields),
};

const DESCRIBED_ERROR_MAX_CHARS = 300;

// What a message may quote that must not reach a log: credentials in a connection URL, bearer
// tokens, agent keys, webhook signing secrets and LLM provider keys.
const SECRET_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, "$1***@"],
  [/\bBearer\s+\S+/gi, "Bearer ***"],
  [/\b(pk_|whsec_|sk-)[A-Za-z0-9+/=_-]+/g, "$1***"],
];

/**
 * An error as one log line: its class name and message ("PrismaClientKnownRequestError: ..."),
 * never its stack. Line breaks collapse to spaces, secrets are masked, and the line is cut at
 * DESCRIBED_ERROR_MAX_CHARS (database errors name the failing constraint early on).
 */
export function describeError(error: unknown): string {
  let text: string;
  if (error instanceof Error) {
    const className = error.name !== "Error" ? error.name : error.constructor?.name || "Error";
    text = error.message ? `${className}: ${error.message}` : className;
  } else if (typeof error === "string") {
    text = `Thrown string: ${error}`;
  } else {
    text = `Thrown ${error === null ? "null" : typeof error}`;
  }
  for (const [pattern, replacement] of SECRET_PATTERNS) text = text.replace(pattern, replacement);
  text = text.replace(/\s+/g, " ").trim();
  if (text.length <= DESCRIBED_ERROR_MAX_CHARS) return text;
  // Never cut a surrogate pair in half: the line must stay valid UTF-8.
  const cut = /[\uD800-\uDBFF]/.test(text[DESCRIBED_ERROR_MAX_CHARS - 2] ?? "")
    ? DESCRIBED_ERROR_MAX_CHARS - 2
    : DESCRIBED_ERROR_MAX_CHARS - 1;
  return `${text.slice(0, cut)}…`;
}
