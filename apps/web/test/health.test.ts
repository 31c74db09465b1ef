// GET /api/health against real databases: a live test database, a closed one, a port where no
// server listens, and a server that accepts connections but never answers (the 2 s timeout).
// GET /api/health/tasks: the background tasks' status, for owners only.
import { createServer, type Server, type Socket } from "node:net";
import { ROLES, type SessionAdmin } from "@parley/core/people";
import { Scheduler } from "@parley/core/scheduler";
import { type Database, openDatabase } from "@parley/db";
import { createTestDatabase } from "@parley/testing/database";
import { afterAll, describe, expect, it, vi } from "vitest";
import { healthResponse } from "~/server/health.ts";
import { tasksHealthResponse } from "~/server/tasks-health.ts";

const UNAVAILABLE = { status: "unavailable", error: "Database unavailable" };

async function expectResponse(response: Response, status: number, body: unknown): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(await response.json()).toEqual(body);
}

const toClose: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of toClose.reverse()) await close().catch(() => {});
});

describe("GET /api/health", () => {
  it('answers 200 {"status":"ok"} when the database answers, 503 once its connection is closed', async () => {
    const db = await createTestDatabase({ migrate: false });
    toClose.push(() => db.close());
    await expectResponse(await healthResponse(new Request("http://localhost/api/health"), async () => db), 200, { status: "ok" });

    await db.close();
    await expectResponse(await healthResponse(new Request("http://localhost/api/health"), async () => db), 503, UNAVAILABLE);
  });

  it("answers 503 when no database server listens at the URL", async () => {
    const db = await openDatabase({ url: "postgres://postgres@127.0.0.1:1/x" });
    toClose.push(() => db.close());
    const started = Date.now();
    await expectResponse(await healthResponse(new Request("http://localhost/api/health"), async () => db), 503, UNAVAILABLE);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("answers 503 when the database cannot even be opened", async () => {
    const failing = (): Promise<Database> => Promise.reject(new Error("cannot open"));
    await expectResponse(await healthResponse(new Request("http://localhost/api/health"), failing), 503, UNAVAILABLE);
  });

  it("answers 503 within its timeout when the server accepts connections but never replies", async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    const db = await openDatabase({ url: `postgres://postgres@127.0.0.1:${port}/x` });
    // Hung-up sockets make the pending connection fail, so the pool can end; then stop the server.
    toClose.push(
      () => new Promise((resolve) => silent.close(resolve)),
      () => db.close(),
      async () => {
        for (const socket of sockets) socket.destroy();
      },
    );

    const started = Date.now();
    await expectResponse(await healthResponse(new Request("http://localhost/api/health"), async () => db), 503, UNAVAILABLE);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1_900);
    expect(elapsed).toBeLessThan(4_000);
    expect(sockets.size).toBe(1);
  });
});

describe("GET /api/health/tasks", () => {
  const request = () => new Request("http://localhost/api/health/tasks");
  const session = (role: SessionAdmin["role"]): SessionAdmin => ({
    userId: "u-1",
    workspaceId: "ws-1",
    role,
    sessionId: "s-1",
    email: "owner@example.com",
    name: "Owner",
    expiresAt: new Date(Date.now() + 60_000),
  });

  async function runningScheduler(): Promise<Scheduler> {
    const db = await createTestDatabase();
    const scheduler = new Scheduler({ db, name: "instance-test" });
    scheduler.add({ name: "ticks", intervalMs: 60_000, run: async () => {} });
    scheduler.add({
      name: "broken",
      intervalMs: 60_000,
      run: async () => {
        throw Object.assign(new Error("password authentication failed for postgres://app:hunter2@db"), { code: "28P01" });
      },
    });
    toClose.push(
      () => db.close(),
      () => scheduler.stop(0),
    );
    scheduler.start();
    await vi.waitFor(async () => expect((await scheduler.status()).every((task) => task.runs === 1 && !task.runningSince)).toBe(true));
    return scheduler;
  }

  it("answers 401 without a session and 403 to every role but the owner, before reading any task", async () => {
    const status = vi.fn(async () => []);
    const scheduler = { name: "unused", status };
    const anonymous = await tasksHealthResponse(request(), async () => null, scheduler);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: "Unauthorized" });
    for (const role of ROLES.filter((role) => role !== "owner")) {
      const refused = await tasksHealthResponse(request(), async () => session(role), scheduler);
      expect(refused.status, role).toBe(403);
      expect(await refused.json()).toEqual({ error: "Forbidden" });
    }
    expect(status).not.toHaveBeenCalled();
  });

  it("shows an owner each task's interval, last run and outcome with a short error code, never the error's text", async () => {
    const scheduler = await runningScheduler();
    const response = await tasksHealthResponse(request(), async () => session("owner"), scheduler);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("password authentication");
    const body = JSON.parse(text);
    expect(body).toMatchObject({
      status: "ok",
      instance: "instance-test",
      tasks: [
        {
          name: "ticks",
          intervalMs: 60_000,
          scope: "instance",
          lastOutcome: "ok",
          lastErrorCode: null,
          runs: 1,
          failures: 0,
          overdue: false,
        },
        {
          name: "broken",
          intervalMs: 60_000,
          scope: "instance",
          lastOutcome: "error",
          lastErrorCode: "28P01",
          runs: 1,
          failures: 1,
          overdue: false,
        },
      ],
    });
    expect(Date.parse(body.tasks[0].lastStartedAt)).toBeLessThanOrEqual(Date.now());
  });

  it("answers 503 to an owner when this process runs no scheduler", async () => {
    const response = await tasksHealthResponse(request(), async () => session("owner"), undefined);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "unavailable", error: "Background tasks are not running on this instance" });
  });

  it("leaves the public GET /api/health as bare as before", async () => {
    const db = await createTestDatabase({ migrate: false });
    toClose.push(() => db.close());
    await expectResponse(await healthResponse(new Request("http://localhost/api/health"), async () => db), 200, { status: "ok" });
  });
});
