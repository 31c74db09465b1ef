// Panel sessions in the database: started at sign-in, checked on every request, used at most
// once a minute, ended one at a time (sign-out, or one of one's own) or all of a user's at once.
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { inboxEventStream } from "../src/conversations/inbox/stream.ts";
import { INBOX_STREAM_HEARTBEAT_MS } from "../src/conversations/limits.ts";
import { createMemoryLiveBus, publishInbox } from "../src/conversations/live.ts";
import { SESSION_IDLE_SECONDS, SESSION_USER_AGENT_MAX_CHARS } from "../src/people/limits.ts";
import { checkSession, endAllSessions, endOwnSession, endSession, listSessions, startSession } from "../src/people/sessions.ts";

let db: TestDatabase;
const T0 = new Date("2030-01-01T00:00:00.000Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.workspace.create({ data: { id: "ws-s", name: "Sessions" } });
  for (const id of ["ada", "bob"]) {
    await db.prisma.user.create({
      data: { id, workspaceId: "ws-s", email: `${id}@example.com`, name: id.toUpperCase(), passwordHash: "x" },
    });
  }
});

afterAll(async () => {
  await db?.close();
});

const start = (userId: string, now = T0) => startSession(db, { userId, ip: "198.51.100.7", userAgent: "Firefox" }, now);

describe("sessions", () => {
  it("starts a session with its client, and checks it back as the user and workspace of now", async () => {
    const session = await start("ada");
    expect(session.expiresAt).toEqual(at(SESSION_IDLE_SECONDS));
    expect(await db.prisma.session.findUniqueOrThrow({ where: { id: session.id } })).toMatchObject({
      userId: "ada",
      createdAt: T0,
      lastSeenAt: T0,
      revokedAt: null,
      ip: "198.51.100.7",
      userAgent: "Firefox",
    });
    expect(await checkSession(db, { sessionId: session.id, userId: "ada" }, at(1))).toEqual({
      sessionId: session.id,
      userId: "ada",
      workspaceId: "ws-s",
      role: "owner",
      email: "ada@example.com",
      name: "ADA",
      expiresAt: at(SESSION_IDLE_SECONDS),
    });
    const long = await startSession(db, { userId: "ada", ip: null, userAgent: "x".repeat(1_000) }, T0);
    expect((await db.prisma.session.findUniqueOrThrow({ where: { id: long.id } })).userAgent).toHaveLength(SESSION_USER_AGENT_MAX_CHARS);
  });

  it("is nothing for an unknown id, another user's session, or once it expired", async () => {
    const session = await start("ada");
    expect(await checkSession(db, { sessionId: "no-such-session", userId: "ada" }, at(1))).toBeNull();
    expect(await checkSession(db, { sessionId: session.id, userId: "bob" }, at(1))).toBeNull();
    expect(await checkSession(db, { sessionId: session.id, userId: "ada" }, at(SESSION_IDLE_SECONDS))).toBeNull();
  });

  it("records its use at most once a minute, and each recorded use moves the idle end forward", async () => {
    const session = await start("ada");
    const row = () => db.prisma.session.findUniqueOrThrow({ where: { id: session.id } });
    await checkSession(db, { sessionId: session.id, userId: "ada" }, at(30));
    expect(await row()).toMatchObject({ lastSeenAt: T0, expiresAt: at(SESSION_IDLE_SECONDS) });
    expect((await checkSession(db, { sessionId: session.id, userId: "ada" }, at(60)))?.expiresAt).toEqual(at(60 + SESSION_IDLE_SECONDS));
    expect(await row()).toMatchObject({ lastSeenAt: at(60), expiresAt: at(60 + SESSION_IDLE_SECONDS) });
    await checkSession(db, { sessionId: session.id, userId: "ada" }, at(100));
    expect(await row()).toMatchObject({ lastSeenAt: at(60) });
    // Used within the idle period, it lives past the first end.
    expect(await checkSession(db, { sessionId: session.id, userId: "ada" }, at(SESSION_IDLE_SECONDS + 1))).not.toBeNull();
  });

  it("ends at sign-out, and a later use does not bring it back; the user's other sessions live on", async () => {
    const first = await start("ada");
    const second = await start("ada");
    await endSession(db, first.id, at(5));
    expect(await checkSession(db, { sessionId: first.id, userId: "ada" }, at(120))).toBeNull();
    expect((await db.prisma.session.findUniqueOrThrow({ where: { id: first.id } })).revokedAt).toEqual(at(5));
    await endSession(db, first.id, at(6));
    expect((await db.prisma.session.findUniqueOrThrow({ where: { id: first.id } })).revokedAt).toEqual(at(5));
    expect(await checkSession(db, { sessionId: second.id, userId: "ada" }, at(120))).not.toBeNull();
  });

  it("ends all of a user's sessions at once, and nobody else's", async () => {
    const bobs = [await start("bob"), await start("bob")];
    const other = await startSession(db, { userId: "ada", ip: null, userAgent: null }, T0);
    expect(await endAllSessions(db, "bob", at(10))).toBe(2);
    for (const session of bobs) expect(await checkSession(db, { sessionId: session.id, userId: "bob" }, at(11))).toBeNull();
    expect(await checkSession(db, { sessionId: other.id, userId: "ada" }, at(11))).not.toBeNull();
    expect(await listSessions(db, "bob", at(11))).toEqual([]);
  });

  it("lists a user's live sessions, most recently used first, and ends only one's own", async () => {
    await db.prisma.session.deleteMany({ where: { userId: "ada" } });
    const older = await start("ada", T0);
    const newer = await start("ada", at(10));
    const ended = await start("ada", at(20));
    await endSession(db, ended.id, at(21));
    const bobs = await start("bob");
    expect((await listSessions(db, "ada", at(30))).map((session) => session.id)).toEqual([newer.id, older.id]);
    expect((await listSessions(db, "ada", at(30)))[0]).toEqual({
      id: newer.id,
      createdAt: at(10),
      lastSeenAt: at(10),
      expiresAt: at(10 + SESSION_IDLE_SECONDS),
      ip: "198.51.100.7",
      userAgent: "Firefox",
    });
    expect(await endOwnSession(db.prisma, "ada", bobs.id, at(31))).toBe(false);
    expect(await checkSession(db, { sessionId: bobs.id, userId: "bob" }, at(31))).not.toBeNull();
    expect(await endOwnSession(db.prisma, "ada", older.id, at(31))).toBe(true);
    expect((await listSessions(db, "ada", at(32))).map((session) => session.id)).toEqual([newer.id]);
  });

  it("forgets, at the next sign-in, the user's sessions that ended long ago", async () => {
    const old = await start("ada", T0);
    await endSession(db, old.id, at(1));
    await start("ada", at(SESSION_IDLE_SECONDS + 2));
    expect(await db.prisma.session.findUnique({ where: { id: old.id } })).toBeNull();
  });
});

describe("the panel's live inbox stream and its session", () => {
  const read = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
    const { done, value } = await reader.read();
    return done ? null : new TextDecoder().decode(value);
  };

  /** Opens a stream for a new session of `userId`; `now` is the clock its checks read. */
  async function open(userId: string, now: () => Date) {
    const started = await start(userId);
    const scope = await checkSession(db, { sessionId: started.id, userId }, T0);
    if (!scope) throw new Error("no session");
    const live = createMemoryLiveBus();
    const current = () => checkSession(db, scope, now(), { touch: false });
    const reader = inboxEventStream(live, scope, new AbortController().signal, current).getReader();
    expect(await read(reader)).toBe("retry: 3000\n: connected\n\n");
    return { scope, live, reader };
  }

  it("goes on while its session lives, without counting the checks as uses, and ends at the first heartbeat after it ended", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const { scope, live, reader } = await open("bob", () => at(SESSION_IDLE_SECONDS / 2));
      await publishInbox(live, "ws-s", { conversationId: "c1" });
      expect(await read(reader)).toBe('event: inbox\ndata: {"type":"inbox","conversationId":"c1"}\n\n');
      await vi.advanceTimersByTimeAsync(INBOX_STREAM_HEARTBEAT_MS);
      expect(await read(reader)).toBe(": ping\n\n");
      expect((await db.prisma.session.findUniqueOrThrow({ where: { id: scope.sessionId } })).lastSeenAt).toEqual(T0);

      await endSession(db, scope.sessionId, at(2));
      await vi.advanceTimersByTimeAsync(INBOX_STREAM_HEARTBEAT_MS);
      expect(await read(reader)).toBeNull();
      await publishInbox(live, "ws-s", { conversationId: "c2" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("ends when the person's role no longer reads the inbox, or the person is deactivated", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      await db.prisma.user.create({
        data: { id: "cyd", workspaceId: "ws-s", email: "cyd@example.com", passwordHash: "x", role: "support" },
      });
      const byRole = await open("cyd", () => at(1));
      await db.prisma.user.update({ where: { id: "cyd" }, data: { role: "editor" } });
      await vi.advanceTimersByTimeAsync(INBOX_STREAM_HEARTBEAT_MS);
      expect(await read(byRole.reader)).toBeNull();

      await db.prisma.user.update({ where: { id: "cyd" }, data: { role: "support" } });
      const byDeactivation = await open("cyd", () => at(1));
      await db.prisma.user.update({ where: { id: "cyd" }, data: { deactivatedAt: T0 } });
      await vi.advanceTimersByTimeAsync(INBOX_STREAM_HEARTBEAT_MS);
      expect(await read(byDeactivation.reader)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
