// GET one page for an import through the webhook worker's SSRF guard: the URL's form and every
// address its host resolves to are checked (private, loopback and link-local refused unless
// WEBHOOKS_ALLOW_LOCAL), the connection goes only to those checked addresses, redirects are
// followed by hand (each hop checked again, at most a few), and the body is cut off at a size.
// One timeout covers the whole page: every lookup, hop and byte.
import type { LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { parseWebhookUrl, resolveWebhookTarget, type UrlPolicy } from "../../platform/url-guard.ts";
import { IMPORT_FETCH_MAX_REDIRECTS, IMPORT_FETCH_TIMEOUT_MS, IMPORT_PAGE_MAX_BYTES } from "../limits.ts";

export interface FetchedPage {
  /** The final URL (after redirects). */
  url: string;
  contentType: string;
  text: string;
}

/** The page's time ran out (its message is the report's reason). */
export class FetchTimeoutError extends Error {}

/** The page, or a thrown Error whose message is the report's reason. */
export async function fetchGuardedPage(text: string, policy: UrlPolicy, timeoutMs = IMPORT_FETCH_TIMEOUT_MS): Promise<FetchedPage> {
  const end = performance.now() + timeoutMs;
  const timeout = { left: () => Math.max(1, end - performance.now()), message: `Timed out after ${Math.round(timeoutMs / 1000)} s` };
  let url = parseWebhookUrl(text, policy);
  for (let hop = 0; hop <= IMPORT_FETCH_MAX_REDIRECTS; hop++) {
    const addresses = await withTimeout(resolveWebhookTarget(url, policy), timeout);
    const response = await get(url, addresses, timeout);
    if (response.location !== null) {
      url = parseWebhookUrl(new URL(response.location, url).toString().replace(/#.*$/, ""), policy);
      continue;
    }
    if (response.status < 200 || response.status > 299) throw new Error(`The server answered ${response.status}`);
    return { url: url.toString(), contentType: response.contentType, text: response.body };
  }
  throw new Error(`More than ${IMPORT_FETCH_MAX_REDIRECTS} redirects`);
}

interface RawResponse {
  status: number;
  location: string | null;
  contentType: string;
  body: string;
}

interface Timeout {
  /** Milliseconds left of the page's time. */
  left(): number;
  message: string;
}

function withTimeout<T>(promise: Promise<T>, timeout: Timeout): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new FetchTimeoutError(timeout.message)), timeout.left());
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

function get(url: URL, checked: string[], timeout: Timeout): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const addresses: LookupAddress[] = checked.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(url, {
      method: "GET",
      agent: false,
      headers: { accept: "text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.5", "user-agent": "Parley-Import/1" },
      lookup: (_hostname, options, callback) => {
        if ((options as { all?: boolean }).all) (callback as (e: Error | null, a: LookupAddress[]) => void)(null, addresses);
        else {
          const first = addresses[0] as LookupAddress;
          (callback as (e: Error | null, a: string, f: number) => void)(null, first.address, first.family);
        }
      },
    });
    const timer = setTimeout(() => req.destroy(new FetchTimeoutError(timeout.message)), timeout.left());
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error instanceof FetchTimeoutError ? error : new Error(error.message));
    });
    req.on("response", (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const location = status >= 300 && status < 400 && typeof res.headers.location === "string" ? res.headers.location : null;
      if (location !== null) {
        res.resume();
        clearTimeout(timer);
        resolve({ status, location, contentType: "", body: "" });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > IMPORT_PAGE_MAX_BYTES) req.destroy(new Error(`The page is larger than ${IMPORT_PAGE_MAX_BYTES / 1024 / 1024} MB`));
        else chunks.push(chunk);
      });
      res.on("end", () => {
        clearTimeout(timer);
        resolve({
          status,
          location: null,
          contentType: String(res.headers["content-type"] ?? ""),
          body: Buffer.concat(chunks).toString("utf8"),
        });
      });
      res.on("error", (error) => {
        clearTimeout(timer);
        reject(error instanceof FetchTimeoutError ? error : new Error(error.message));
      });
    });
    req.end();
  });
}
