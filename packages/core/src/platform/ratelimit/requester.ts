// A custom @upstash/redis requester that speaks the Upstash REST protocol to a plain Redis
// connection (ioredis, or ioredis-mock in process), so @upstash/ratelimit runs unchanged on
// every backend. @upstash/ratelimit speaks only Upstash's REST protocol, and its Lua scripts
// start with a `#!lua flags=allow-key-locking` line that open-source Redis refuses (stripped below).
//
// Protocol, as @upstash/redis' HttpClient and Pipeline use it:
// - one command: `{ body: ["evalsha", sha, 2, k1, k2, a1] }` -> `{ result }` or `{ error }`;
// - batches: `{ path: ["pipeline"], body: [[...cmd], [...cmd]] }` -> `[{ result } | { error }, ...]`.
// Replies go back as plain JSON-like values. Upstash's server base64-encodes strings only when the
// HttpClient asks for it (`Upstash-Encoding: base64`), and the decoding lives in that HttpClient,
// which a custom requester replaces: so replies here must NOT be base64-encoded.
import { createHash } from "node:crypto";
import type { Requester, UpstashRequest, UpstashResponse } from "@upstash/redis";

/** Sends one raw Redis command and resolves with its reply; rejects with the Redis error. */
export type SendCommand = (command: string, args: (string | number)[]) => Promise<unknown>;

type Reply = UpstashResponse<unknown>;

const sha1 = (text: string): string => createHash("sha1").update(text).digest("hex");

/**
 * @upstash/ratelimit's Lua scripts start with `#!lua flags=allow-key-locking`, a flag only
 * Upstash knows; open-source Redis rejects the script ("Unexpected flag in script shebang") and
 * ioredis-mock's Lua VM cannot parse `#!`. Without a shebang Redis runs the script exactly the same.
 */
export function stripShebang(script: string): string {
  return script.startsWith("#!") ? script.slice(script.indexOf("\n") + 1) : script;
}

/** What the server knows as `strippedSha`, for a script the library knows as its original sha. */
interface KnownScript {
  stripped: string;
  strippedSha: string;
}

/**
 * The library calls EVALSHA with the sha1 of the ORIGINAL script and falls back to EVAL with the
 * original text on NOSCRIPT. We remember every script seen in EVAL / SCRIPT LOAD under its
 * original sha, run the stripped text, and answer later EVALSHAs with the stripped script's sha
 * (re-sending the text whenever the server has lost it: restart, SCRIPT FLUSH, a fresh mock).
 */
function createScriptTranslator(send: SendCommand) {
  const byOriginalSha = new Map<string, KnownScript>();

  const remember = (script: string): KnownScript & { originalSha: string } => {
    const originalSha = sha1(script);
    let known = byOriginalSha.get(originalSha);
    if (!known) {
      const stripped = stripShebang(script);
      known = { stripped, strippedSha: sha1(stripped) };
      byOriginalSha.set(originalSha, known);
    }
    return { originalSha, ...known };
  };

  return async function sendTranslated(command: string, args: (string | number)[]): Promise<unknown> {
    const name = command.toLowerCase();
    const [first, ...rest] = args;
    if ((name === "eval" || name === "eval_ro") && typeof first === "string") {
      return send(name, [remember(first).stripped, ...rest]);
    }
    if ((name === "evalsha" || name === "evalsha_ro") && typeof first === "string") {
      const known = byOriginalSha.get(first.toLowerCase());
      // A sha we never saw: pass it through; the server's NOSCRIPT makes the library send EVAL.
      if (!known) return send(name, args);
      try {
        return await send(name, [known.strippedSha, ...rest]);
      } catch (error) {
        if (!String(error).includes("NOSCRIPT")) throw error;
        return send(name === "evalsha" ? "eval" : "eval_ro", [known.stripped, ...rest]);
      }
    }
    if (name === "script" && typeof first === "string" && first.toLowerCase() === "load" && typeof rest[0] === "string") {
      const { originalSha, stripped } = remember(rest[0]);
      await send("script", ["load", stripped]);
      // Callers EVALSHA with the hash of what they loaded; we map that hash above.
      return originalSha;
    }
    return send(command, args);
  };
}

/** Turns Upstash's JSON command (strings, numbers, booleans) into Redis arguments. */
function toCommand(body: unknown): { command: string; args: (string | number)[] } {
  if (!Array.isArray(body) || body.length === 0 || typeof body[0] !== "string") {
    throw new TypeError("Upstash request body is not a command");
  }
  const [command, ...args] = body as [string, ...unknown[]];
  return { command, args: args.map((arg) => (typeof arg === "number" ? arg : String(arg))) };
}

async function reply(send: SendCommand, body: unknown): Promise<Reply> {
  try {
    const { command, args } = toCommand(body);
    const result = await send(command, args);
    // Upstash sends a Redis nil as JSON null; @upstash/redis treats `undefined` as "no result".
    return { result: result === undefined ? null : result };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

export function createRedisRequester(send: SendCommand): Requester {
  const sendTranslated = createScriptTranslator(send);
  return {
    async request<TResult = unknown>(req: UpstashRequest): Promise<UpstashResponse<TResult>> {
      const path = req.path ?? [];
      if (path[0] === "pipeline") {
        if (!Array.isArray(req.body)) throw new TypeError("Upstash pipeline body is not a list of commands");
        // Started in order on one connection, so Redis runs them in order (not atomically: a
        // pipeline never is); each command answers for itself, as Upstash's pipeline endpoint does.
        const replies = await Promise.all(req.body.map((command) => reply(sendTranslated, command)));
        return replies as unknown as UpstashResponse<TResult>;
      }
      if (path.length > 0) {
        // "multi-exec" (transactions) and the other REST endpoints: nothing in Parley uses them.
        throw new Error(`Upstash REST path /${path.join("/")} is not supported by the Redis requester`);
      }
      return (await reply(sendTranslated, req.body)) as UpstashResponse<TResult>;
    },
  };
}
