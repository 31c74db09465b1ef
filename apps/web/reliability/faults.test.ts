// Faults, on real app processes:
// - the database connection dies during a turn (its backend terminated by PostgreSQL, or the
//   database unreachable: a TCP proxy between app and database cut): 500 `Internal error`, no
//   partial rows, and the next turn succeeds once the database is back. The turn is caught at a
//   known point deterministically: the test holds the row lock of the agent's usage counter, so
//   the turn's transaction waits on it (seen in pg_stat_activity) when the connection is killed;
// - the embedded (PGlite) data survives restarts of the app, graceful and SIGKILL;
// - a slow or failing LLM endpoint (the fake OpenAI-compatible server of core's tests) times out or
//   fails cleanly: 500 `Internal error`, nothing stored, and the next turn works.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { generateAgentKey } from "@parley/core/agents";
import { seed } from "@parley/core/demo";
import { migrate, openDatabase } from "@parley/db";
import { errorResponse, type FakeOpenAi, slowResponse, startFakeOpenAi, textResponse } from "@parley/testing/fake-openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppInstance, printLogsOnFailure, redisUrl, startApp } from "./support/apps.ts";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  agentRows,
  appDatabaseUrl,
  createAgent,
  createSeededDatabase,
  type ServerDatabase,
  type TestAgent,
} from "./support/database.ts";
import { sendTurn, sleep } from "./support/http.ts";
import { startTcpProxy, type TcpProxy } from "./support/tcp-proxy.ts";

const INTERNAL_ERROR = { error: "Internal error" };

describe("PostgreSQL faults and LLM faults", () => {
  const APPLICATION_NAME = "parley-faults";
  const LLM_TIMEOUT_MS = 1_500;
  let db: ServerDatabase;
  let proxy: TcpProxy;
  let fake: FakeOpenAi;
  let app: AppInstance | undefined;

  beforeAll(async () => {
    db = await createSeededDatabase();
    const server = new URL(db.url);
    proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
    fake = await startFakeOpenAi({ apiKey: "sk-reliability" });
    app = await startApp({
      name: "faults",
      env: {
        DATABASE_URL: appDatabaseUrl(db.url, APPLICATION_NAME, proxy),
        REDIS_URL: redisUrl(),
        LLM_BASE_URL: fake.baseUrl,
        LLM_API_KEY: "sk-reliability",
        LLM_MODEL: "fake-model",
        LLM_TIMEOUT_MS: String(LLM_TIMEOUT_MS),
      },
    });
  });

  printLogsOnFailure(() => [app]);

  afterAll(async () => {
    await app?.stop();
    await fake?.close();
    await proxy?.close();
    await db?.close();
  });

  /** The app's backends (by application_name), optionally only those waiting on a lock. */
  async function appBackends(waitingOnLock = false): Promise<number[]> {
    const rows = await db.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 ${waitingOnLock ? "AND wait_event_type = 'Lock'" : ""}`,
      [APPLICATION_NAME],
    );
    return rows.map((row) => row.pid);
  }

  async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n--- app log ---\n${app?.logTail()}`);
      await sleep(25);
    }
  }

  /**
   * Sends a turn while the test holds the row lock of the agent's usage counter, waits until the
   * turn's transaction waits on that lock, runs `fault`, and returns the turn's outcome; the lock is
   * released only after `afterOutcome` ran.
   */
  async function turnInterruptedBy(agent: TestAgent, fault: () => Promise<void>, afterOutcome: () => Promise<void> = async () => {}) {
    return db.withSession(async (session) => {
      await session.execScript("BEGIN");
      try {
        const locked = await session.query(`SELECT 1 FROM "UsageMonth" WHERE "agentId" = $1 FOR UPDATE`, [agent.id]);
        expect(locked).toHaveLength(1);
        const pending = sendTurn(app!.url, agent, { message: "This turn loses its database connection. How do refunds work?" });
        await until("the turn to wait on the usage row lock", async () => ((await appBackends(true)).length > 0 ? true : undefined));
        await fault();
        const outcome = await pending;
        await afterOutcome();
        return outcome;
      } finally {
        await session.execScript("ROLLBACK");
      }
    });
  }

  it("a backend terminated during a turn: 500, no partial rows, the next turn succeeds", async () => {
    const agent = await createAgent(db, "terminate");
    expect((await sendTurn(app!.url, agent, { message: "Hello" })).status).toBe(200);
    const before = await agentRows(db, agent.id);
    let terminated = 0;

    const outcome = await turnInterruptedBy(agent, async () => {
      const pids = await appBackends();
      const rows = await db.query<{ ok: boolean }>("SELECT pg_terminate_backend(pid) AS ok FROM unnest($1::int[]) AS pid", [pids]);
      terminated = rows.filter((row) => row.ok).length;
    });
    expect(outcome.status).toBe(500);
    expect(outcome.body).toEqual(INTERNAL_ERROR);
    await until("the terminated backends to be gone", async () => ((await appBackends()).length === 0 ? true : undefined));
    expect(await agentRows(db, agent.id)).toEqual(before);

    const next = await sendTurn(app!.url, agent, { message: "Are you back?" });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    const after = await agentRows(db, agent.id);
    expect(after.conversations).toBe(before.conversations + 1);
    expect(after.messages).toBe(before.messages + 2);
    console.log(
      `database connection killed mid-turn: ${terminated} app backend(s) terminated while the turn waited in its transaction -> ` +
        `500 {"error":"Internal error"}; rows unchanged (${before.conversations} conversation, ${before.messages} messages, ` +
        `usage ${before.usage[0]?.turns} turn); the next turn 200 (+1 conversation, +2 messages)`,
    );
  });

  it("the database unreachable during a turn: 500, no partial rows, the next turn succeeds once it is back", async () => {
    const agent = await createAgent(db, "outage");
    expect((await sendTurn(app!.url, agent, { message: "Hello" })).status).toBe(200);
    const before = await agentRows(db, agent.id);
    let duringOutage: Awaited<ReturnType<typeof sendTurn>> | undefined;
    let health = 0;

    const outcome = await turnInterruptedBy(
      agent,
      () => proxy.cut(),
      async () => {
        // While the database is away every turn fails the same way, and health says so.
        duringOutage = await sendTurn(app!.url, agent, { message: "Anyone there?" });
        health = (await fetch(`${app!.url}/api/health`)).status;
      },
    );
    expect(outcome.status).toBe(500);
    expect(outcome.body).toEqual(INTERNAL_ERROR);
    expect(duringOutage?.status).toBe(500);
    expect(duringOutage?.body).toEqual(INTERNAL_ERROR);
    expect(health).toBe(503);
    // The interrupted transaction's backend lost its client: once the lock is free it ends, never commits.
    await until("the orphaned backend to end", async () => ((await appBackends()).length === 0 ? true : undefined));
    expect(await agentRows(db, agent.id)).toEqual(before);

    await proxy.restore();
    const next = await sendTurn(app!.url, agent, { message: "Are you back?" });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    const after = await agentRows(db, agent.id);
    expect(after.conversations).toBe(before.conversations + 1);
    expect(after.messages).toBe(before.messages + 2);
    console.log(
      `database unreachable mid-turn (proxy cut): the interrupted turn and a turn during the outage -> 500 {"error":"Internal error"}, ` +
        `health 503; rows unchanged; database back -> the next turn 200 (+1 conversation, +2 messages)`,
    );
  });

  it("a slow or failing LLM endpoint: 500 after the timeout or the error, nothing stored, the next turn works", async () => {
    const agent = await createAgent(db, "llm", { engine: "llm" });
    const requestsBefore = fake.requests.length;

    fake.enqueue(slowResponse(60_000));
    const slowStarted = performance.now();
    const slow = await sendTurn(app!.url, agent, { message: "Will the model answer in time?" });
    const slowSeconds = (performance.now() - slowStarted) / 1000;
    expect(slow.status).toBe(500);
    expect(slow.body).toEqual(INTERNAL_ERROR);
    // It gave up on its own timeout, not after the model's minute.
    expect(slowSeconds).toBeLessThan(30);

    fake.enqueue(errorResponse(500, "The fake model is down"));
    const failing = await sendTurn(app!.url, agent, { message: "And now?" });
    expect(failing.status).toBe(500);
    expect(failing.body).toEqual(INTERNAL_ERROR);
    expect(fake.requests.length - requestsBefore).toBe(2); // one call each: no retry
    expect(await agentRows(db, agent.id)).toEqual({ conversations: 0, messages: 0, usage: [] });

    fake.enqueue(textResponse("The model is back."));
    const next = await sendTurn(app!.url, agent, { message: "Hello again" });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.reply).toBe("The model is back.");
    expect((await agentRows(db, agent.id)).messages).toBe(2);
    console.log(
      `llm faults: a model that would answer after 60 s -> 500 {"error":"Internal error"} after ${slowSeconds.toFixed(1)} s ` +
        `(LLM_TIMEOUT_MS=${LLM_TIMEOUT_MS}); a model answering HTTP 500 -> 500 after 1 call (no retry); nothing stored; ` +
        `the next turn 200 with the model's reply`,
    );
  });
});

describe("embedded database", () => {
  let dataDir: string;
  let app: AppInstance | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), "parley-reliability-data-"));
  });

  printLogsOnFailure(() => [app]);

  afterAll(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The app in embedded mode on this data folder (in-process limits, as the embedded default). */
  const startEmbedded = (port?: number) =>
    startApp({ name: "embedded", port, env: { DATABASE_URL: "", REDIS_URL: "", DATA_DIR: dataDir } });

  it("the embedded (PGlite) data survives restarts of the app, graceful and SIGKILL", async () => {
    // Prepared as `npm start` does (migrate, seed), plus a key for the demo agent.
    const setup = await openDatabase({ dataDir: path.join(dataDir, "pglite") });
    await migrate(setup);
    await seed(setup, { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD });
    const agent = { id: "demo", key: (await generateAgentKey(setup, "demo")).key };
    await setup.close();

    app = await startEmbedded();
    const port = app.port;
    const first = await sendTurn(app.url, agent, { message: "How do I get a refund?" });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const conversationId = first.body.conversationId as string;
    expect((await sendTurn(app.url, agent, { message: "And an invoice?", conversationId })).status).toBe(200);

    await app.stop();
    app = await startEmbedded(port);
    const afterRestart = await sendTurn(app.url, agent, { message: "Still there after a restart?", conversationId });
    expect(afterRestart.status, JSON.stringify(afterRestart.body)).toBe(200);

    await app.kill();
    app = await startEmbedded(port);
    const afterKill = await sendTurn(app.url, agent, { message: "Still there after SIGKILL?", conversationId });
    expect(afterKill.status, JSON.stringify(afterKill.body)).toBe(200);
    await app.stop();
    app = undefined;

    const check = await openDatabase({ dataDir: path.join(dataDir, "pglite") });
    try {
      const messages = await check.prisma.message.findMany({ where: { conversationId }, orderBy: { sequence: "asc" } });
      expect(messages.map((m) => m.sequence)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(messages.filter((m) => m.role === "user").map((m) => m.text)).toEqual([
        "How do I get a refund?",
        "And an invoice?",
        "Still there after a restart?",
        "Still there after SIGKILL?",
      ]);
      console.log(
        `embedded restart: 2 turns written; after a graceful restart the conversation continued (200); after a SIGKILL it ` +
          `continued again (200); ${messages.length} messages on disk with sequences 0..${messages.length - 1}`,
      );
    } finally {
      await check.close();
    }
  });
});
