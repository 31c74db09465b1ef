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
