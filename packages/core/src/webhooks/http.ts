// One webhook attempt over node:http(s): connects only to addresses the SSRF guard checked (the
// `lookup` hook answers with them, so nothing is resolved twice), never follows redirects, gives
// up after the timeout, and keeps only the start of the response body.
import type { LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { WEBHOOK_RESPONSE_EXCERPT_CHARS } from "./limits.ts";

export interface PostResult {
  status: number;
  /** The Retry-After header, in milliseconds from now (null when absent or unreadable). */
  retryAfterMs: number | null;
  body: string;
}

export interface PostOptions {
  url: URL;
  /** Checked addresses of the URL's host, to connect to (the first that works). */
  addresses: string[];
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  signal?: AbortSignal;
  now: () => Date;
}

export class AttemptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AttemptError";
  }
}

/** Resolves with the response (any status) or rejects with AttemptError (timeout, network, abort). */
export function postWebhook(options: PostOptions): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const addresses: LookupAddress[] = options.addresses.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
    const send = options.url.protocol === "https:" ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (error: Error | null, result?: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (error) reject(error instanceof AttemptError ? error : new AttemptError(describe(error)));
      else resolve(result as PostResult);
    };
    const req = send(options.url, {
      method: "POST",
      agent: false,
      headers: { ...options.headers, "content-length": String(Buffer.byteLength(options.body)) },
      // Called for host names only (IP literals need no lookup; they were checked as they are).
      lookup: (_hostname, lookupOptions, callback) => {
        const all = typeof lookupOptions === "object" && lookupOptions !== null && (lookupOptions as { all?: boolean }).all;
        if (all) (callback as (error: Error | null, addresses: LookupAddress[]) => void)(null, addresses);
        else {
          const first = addresses[0] as LookupAddress;
          (callback as (error: Error | null, address: string, family: number) => void)(null, first.address, first.family);
        }
      },
    });
    const timer = setTimeout(() => {
      req.destroy(new AttemptError(`Timed out after ${Math.round(options.timeoutMs / 1000)} s`));
    }, options.timeoutMs);
    const onAbort = () => req.destroy(new AttemptError("Attempt aborted"));
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });

    req.on("error", (error) => finish(error));
    req.on("response", (res: IncomingMessage) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        if (body.length < WEBHOOK_RESPONSE_EXCERPT_CHARS) body += chunk;
      });
      res.on("error", (error) => finish(error));
      res.on("end", () =>
        finish(null, {
          status: res.statusCode ?? 0,
          retryAfterMs: parseRetryAfter(res.headers["retry-after"], options.now()),
          body: body.slice(0, WEBHOOK_RESPONSE_EXCERPT_CHARS),
        }),
      );
    });
    req.end(options.body);
  });
}

function describe(error: Error): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? `${code}: ${error.message}` : error.message;
}

/** Retry-After as delay-seconds or an HTTP date, in milliseconds from `now`. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now.getTime());
}
