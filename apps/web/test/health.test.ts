// GET /api/health against real databases: a live test database, a closed one, a port where no
// server listens, and a server that accepts connections but never answers (the 2 s timeout).
import { createServer, type Server, type Socket } from "node:net";
import { type Database, openDatabase } from "@parley/db";
import { createTestDatabase } from "@parley/db/testing";
import { afterAll, describe, expect, it } from "vitest";
import { healthResponse } from "~/server/health.ts";

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
