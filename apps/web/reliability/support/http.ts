// HTTP against the running app: message turns with their timing, the spec's error body, an admin
// session through the real sign-in (next-auth credentials), and status tallies for the printouts.
import { performance } from "node:perf_hooks";

export interface Outcome {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: a JSON body whose shape the tests check.
  body: any;
  headers: Headers;
  /** performance.now() when the request was handed to fetch, and when its response was read. */
  sentAt: number;
  doneAt: number;
}

async function readOutcome(response: Response, sentAt: number): Promise<Outcome> {
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get("content-type") ?? "").includes("application/json")) {
    try {
      body = JSON.parse(text);
    } catch {
      // Left as text: a JSON content type with an unparsable body fails the callers' checks.
    }
  }
  return { status: response.status, body, headers: response.headers, sentAt, doneAt: performance.now() };
}

/** POST /api/agent/{agentId}/messages with the agent's key and a JSON body. */
export async function sendTurn(
  baseUrl: string,
  agent: { id: string; key: string },
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Outcome> {
  const sentAt = performance.now();
  const response = await fetch(`${baseUrl}/api/agent/${encodeURIComponent(agent.id)}/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${agent.key}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return readOutcome(response, sentAt);
}

/** Any request, timed and read like sendTurn's. */
export async function request(url: string, init: RequestInit = {}): Promise<Outcome> {
  const sentAt = performance.now();
  return readOutcome(await fetch(url, { redirect: "manual", ...init }), sentAt);
}

/** The spec's error body (section 2.7): `error` (string) and optionally `details` (string), nothing else. */
export function isErrorBody(body: unknown): body is { error: string; details?: string } {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return false;
  const record = body as Record<string, unknown>;
  const keys = Object.keys(record);
  return (
    typeof record.error === "string" &&
    record.error.length > 0 &&
    keys.every((key) => key === "error" || key === "details") &&
    (record.details === undefined || typeof record.details === "string")
  );
}

/** "200×10, 402×40": how many outcomes had each status. */
export function tally(outcomes: Array<{ status: number }>): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of outcomes) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

export function formatTally(counts: Record<number, number>): string {
  return Object.entries(counts)
    .map(([status, count]) => `${status}×${count}`)
    .join(", ");
}

/** Signs the admin in through next-auth's credentials flow; returns the Cookie header of the session. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookies = csrf.headers.getSetCookie().map((cookie) => cookie.split(";")[0]);
  const response = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookies.join("; "), origin: baseUrl },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${baseUrl}/panel`, json: "true" }),
  });
  const session = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .find((cookie) => cookie.startsWith("next-auth.session-token="));
  if (!session) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return session;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it is true; fails after `timeoutMs` saying what it waited for, with `detail()` (an app's log) if given. */
export async function until(
  what: string,
  probe: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  detail?: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${detail ? `\n${detail()}` : ""}`);
    await sleep(20);
  }
}

/**
 * One turn on each instance with a throwaway agent, so that no instance is still loading its
 * route code when a race starts (a cold instance would lose every race to a warm one).
 */
export async function warmUp(urls: string[], agent: { id: string; key: string }): Promise<void> {
  for (const url of urls) {
    const outcome = await sendTurn(url, agent, { message: "Warming up" });
    if (outcome.status !== 200) throw new Error(`warm-up turn on ${url}: ${outcome.status} ${JSON.stringify(outcome.body)}`);
  }
}
