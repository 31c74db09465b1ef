// Hardening on real app processes (two instances of one deployment sharing PostgreSQL and Redis):
// - request bodies are capped before Next or a route reads them: a declared 300 MB sign-in body
//   and a chunked body that keeps growing both get 413, and the server's memory does not grow;
// - a method a route does not serve gets 405 with the error body and Allow, on both serving paths;
// - signing out on one instance ends the session on the other at once (a kept cookie gets 401
//   and is sent from /panel to /signin), while another session of the admin goes on; ending all
//   of the admin's sessions ends them everywhere;
// - /api/health keeps answering while a flood of sign-ins hashes passwords (figures printed).
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { AUTH_BODY_MAX_BYTES, TRPC_BODY_MAX_BYTES } from "@parley/core/limits";
import { endAllSessions } from "@parley/core/people";
import { residentKb } from "@parley/testing/processes";
import { describe, expect, it } from "vitest";
import { rawRequest } from "../test/support/raw-request.ts";
import { setUpTwoAppCluster } from "./support/cluster.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createAgent } from "./support/database.ts";
import { request, signIn } from "./support/http.ts";

// Limits raised (RATE_LIMIT_SCALE) so that the sign-in flood hashes every password instead of
// meeting the per-IP budget.
const cluster = setUpTwoAppCluster("hardening", { RATE_LIMIT_SCALE: "100" });

/** The most a loopback connection's send and receive buffers hold (Linux's autotuning maximums). */
function socketBufferBytes(): number {
  const maximum = (file: string) => Number(readFileSync(file, "utf8").trim().split(/\s+/).at(-1));
  return maximum("/proc/sys/net/ipv4/tcp_rmem") + maximum("/proc/sys/net/ipv4/tcp_wmem");
}

describe("request body caps", () => {
  it("refuse a declared 300 MB sign-in body and a growing chunked tRPC body with 413; memory stays put", async () => {
    const app = cluster.apps[0]!;
    const before = residentKb(app.pid) / 1024;
    for (let attempt = 0; attempt < 3; attempt++) {
      const declared = await rawRequest(app.url, "/api/auth/callback/credentials", { declared: 300 * 1024 * 1024, total: 0 });
      expect(declared.status).toBe(413);
      expect(JSON.parse(declared.body)).toEqual({
        error: "Payload too large",
        details: `body: must be at most ${AUTH_BODY_MAX_BYTES} bytes`,
      });
      const total = 300 * 1024 * 1024;
      const chunked = await rawRequest(app.url, "/api/trpc/agents.list", { total });
      expect(chunked.status).toBe(413);
      expect(JSON.parse(chunked.body)).toEqual({
        error: "Payload too large",
        details: `body: must be at most ${TRPC_BODY_MAX_BYTES} bytes`,
      });
      // The connection closed long before the 300 MB: what was sent is what the kernel's socket
      // buffers took in (up to tcp_rmem's and tcp_wmem's maximum) plus what Node discarded of the
      // body while the 413 travelled back to a client still writing (that part depends on how busy
      // the machine is, so the bound is a quarter of the body, not the buffers alone).
      expect(chunked.sent).toBeLessThan(Math.max(total / 4, socketBufferBytes() + 2 * TRPC_BODY_MAX_BYTES));
    }
    const after = residentKb(app.pid) / 1024;
    console.log(
      `body caps: server resident memory ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB after 3 x (300 MB declared + 300 MB chunked)`,
    );
    // Before the caps one such body took 900 MB.
    expect(after - before).toBeLessThan(100);
    expect((await request(`${app.url}/api/health`)).status).toBe(200);
  });

  it("hand a chunked message within the limit whole to the route", async () => {
    const agent = await createAgent(cluster.db, "body-caps");
    const body = JSON.stringify({ message: "How do I reset my password?", clientVariables: { pad: "x".repeat(1_000) } });
    const response = await fetch(`${cluster.apps[1]!.url}/api/agent/${agent.id}/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${agent.key}`, "content-type": "application/json" },
      body: new Blob([body]).stream(),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(200);
  });
});

describe("405 Method not allowed", () => {
  it("on the direct path of the public routes and on Next's route files, with Allow", async () => {
    const url = cluster.apps[0]!.url;
    for (const [method, path, allow] of [
      ["GET", "/api/agent/demo/messages", "POST"],
      ["DELETE", "/api/agent/demo/help", "GET, HEAD"],
      ["PUT", "/api/agent/demo/help/articles/art-refunds", "GET, HEAD"],
      ["GET", "/api/agents/demo/http-api-key", "POST, DELETE"],
    ] as const) {
      const outcome = await request(`${url}${path}`, { method });
      expect(outcome.status, `${method} ${path}`).toBe(405);
      expect(outcome.headers.get("allow"), `${method} ${path}`).toBe(allow);
      expect(outcome.body, `${method} ${path}`).toEqual({ error: "Method not allowed" });
    }
    const head = await fetch(`${url}/api/agent/demo/help`, { method: "HEAD" });
    expect(head.status).toBe(200);
  });
});

/** Signs out through next-auth's sign-out route, as the panel's Sign out button does. */
async function signOut(baseUrl: string, sessionCookie: string): Promise<void> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`, { headers: { cookie: sessionCookie } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookie = csrf.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!);
  const response = await fetch(`${baseUrl}/api/auth/signout`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: [sessionCookie, ...csrfCookie].join("; "), origin: baseUrl },
    body: new URLSearchParams({ csrfToken, callbackUrl: `${baseUrl}/signin`, json: "true" }),
  });
  expect(response.status).toBe(200);
  // The browser's copy is cleared; a copy kept elsewhere is what the checks below use.
  expect(response.headers.getSetCookie().some((cookie) => /^next-auth\.session-token=;/.test(cookie))).toBe(true);
}

async function access(baseUrl: string, cookie: string) {
  const trpc = await request(`${baseUrl}/api/trpc/agents.list`, { headers: { cookie } });
  const key = await request(`${baseUrl}/api/agents/demo-quota/http-api-key`, { method: "DELETE", headers: { cookie, origin: baseUrl } });
  const panel = await request(`${baseUrl}/panel/agents`, { headers: { cookie } });
  return { trpc: trpc.status, key: key.status, panel: panel.status, panelLocation: panel.headers.get("location") };
}

describe("sessions across instances", () => {
  it("sign-out on one instance ends the session on the other at once; the admin's other session goes on", async () => {
    const [first, second] = cluster.apps;
    if (!first || !second) throw new Error("two instances expected");
    const kept = await signIn(first.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    const other = await signIn(first.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(await access(second.url, kept)).toEqual({ trpc: 200, key: 204, panel: 200, panelLocation: null });

    await signOut(first.url, kept);
    for (const app of [second, first]) {
      expect(await access(app.url, kept)).toEqual({ trpc: 401, key: 401, panel: 307, panelLocation: "/signin?callbackUrl=%2Fpanel" });
      expect(await access(app.url, other)).toEqual({ trpc: 200, key: 204, panel: 200, panelLocation: null });
    }

    // Ending all of the admin's sessions (a password change) ends them on every instance.
    const admin = await cluster.db.prisma.user.findUniqueOrThrow({ where: { email: ADMIN_EMAIL } });
    expect(await endAllSessions(cluster.db, admin.id, new Date())).toBeGreaterThanOrEqual(1);
    for (const app of [first, second]) expect((await access(app.url, other)).trpc).toBe(401);
  });
});

describe("sign-in flood", () => {
  /** /api/health round trips (ms), one every 50 ms while `during` runs. */
  async function probeHealth(url: string, during: () => Promise<unknown>): Promise<number[]> {
    const times: number[] = [];
    let running = true;
    const probe = (async () => {
      while (running) {
        const started = performance.now();
        expect((await request(`${url}/api/health`)).status).toBe(200);
        times.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await during();
    running = false;
    await probe;
    return times.sort((a, b) => a - b);
  }
  const describeTimes = (times: number[]) => {
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(0);
    return `${times.length} probes, p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${times.at(-1)!.toFixed(0)} ms`;
  };

  it("/api/health keeps answering while 40 sign-ins (10 at a time) hash passwords", async () => {
    const app = cluster.apps[1]!;
    // The sign-in routes' code loaded first (a cold route would be measured, not the hashes).
    await signIn(app.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    const quiet = await probeHealth(app.url, () => new Promise((resolve) => setTimeout(resolve, 5_000)));
    let floodMs = 0;
    const flood = await probeHealth(app.url, async () => {
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          while (next < 40) {
            next += 1;
            await signIn(app.url, `nobody-${next}@example.com`, "wrong password").catch(() => {});
          }
        }),
      );
      floodMs = performance.now() - started;
    });
    console.log(
      `sign-in flood: /api/health without sign-ins ${describeTimes(quiet)}; during 40 sign-ins (${(floodMs / 1000).toFixed(1)} s) ${describeTimes(flood)}`,
    );
    expect(flood.length).toBeGreaterThan(5);
  });
});
