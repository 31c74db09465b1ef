// A small structured logger (JSON lines to stdout/stderr). Callers pass only safe fields: never
// message text at info level, never keys, passwords or tokens.
import { env } from "@parley/db";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, "silent">;

function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  const configured = process.env.NODE_ENV === "test" && !process.env.LOG_LEVEL ? "silent" : env().LOG_LEVEL;
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
