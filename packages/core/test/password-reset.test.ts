// "Forgot password?" on a real database with a fixed clock: the link is emailed to an active
// person only (its token never stored, only its hash), works once and for 60 minutes, sets the
// password and ends every session; an unknown address gets the same answer, and an answer that
// does not wait for the email; the IP's and the address's budgets refuse with 429 and the same
// words. Also "Sign out everywhere else" and the sessions named by browser.
import { createHash } from "node:crypto";
import { freezeClockAtWindowStart } from "@parley/testing/clock";
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { endOtherSessions, ownSessions } from "../src/people/account.ts";
import {
  PASSWORD_RESET_REQUESTS_PER_EMAIL_PER_HOUR,
  PASSWORD_RESET_REQUESTS_PER_IP_PER_WINDOW,
  PASSWORD_RESET_TTL_SECONDS,
} from "../src/people/limits.ts";
import {
  completePasswordReset,
  completePasswordResetInput,
  openPasswordReset,
  PASSWORD_RESET_REQUESTED,
  requestPasswordReset,
} from "../src/people/password-reset.ts";
import { hashPassword } from "../src/people/passwords.ts";
import { checkSession, startSession } from "../src/people/sessions.ts";
import { signInAdmin } from "../src/people/sign-in.ts";
import { isAppError } from "../src/platform/errors.ts";
import { FAILED_SIGN_INS_PER_WINDOW } from "../src/platform/limits.ts";
import type { Mailer, MailMessage } from "../src/platform/mail.ts";
import { createRateLimiters } from "../src/platform/ratelimit/index.ts";
import type { RateLimiters } from "../src/platform/ratelimit/types.ts";

let db: TestDatabase;
let limiters: RateLimiters;
const T0 = new Date("2030-01-01T00:00:00.000Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const APP_URL = "https://parley.example";
const INVALID =
  "This password reset link is not valid: it may have expired or been used already. Ask for a new link from the sign-in page.";
const THROTTLED = "Too many password reset requests. Try again later.";

const sent: MailMessage[] = [];
const mailer: Mailer = {
  async send(message) {
    sent.push(message);
  },
  close() {},
};

let ipCounter = 0;
/** A client of its own per call, unless given: each test's budgets start empty. */
const client = (ip = `203.0.113.${++ipCounter}`) => ({ ip, userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0" });

beforeAll(async () => {
  db = await createTestDatabase();
  limiters = createRateLimiters({ prefix: `reset-${process.pid}` });
  await db.prisma.workspace.create({ data: { id: "ws-r", name: "Resets" } });
  const passwordHash = await hashPassword("old password");
  for (const id of ["ada", "bob", "cyd", "dee", "eve", "gone"]) {
    await db.prisma.user.create({
      data: { id, workspaceId: "ws-r", email: `${id}@example.com`, passwordHash, deactivatedAt: id === "gone" ? T0 : null },
    });
  }
});

afterEach(() => {
  sent.length = 0;
  vi.useRealTimers();
});

afterAll(async () => {
  await limiters?.close();
  await db?.close();
});

const deps = () => ({ db, limiters, appUrl: APP_URL, mailer });

/** Asks for a link and waits for its email (if any); returns the link's token. */
async function ask(email: string, now = T0, from = client()): Promise<string | undefined> {
  const { message, delivery } = await requestPasswordReset(deps(), { email }, from, now);
  expect(message).toBe(PASSWORD_RESET_REQUESTED);
  await delivery;
  const link = sent.find((mail) => mail.to === email)?.text.match(/https:\/\/parley\.example\/reset-password\/([A-Za-z0-9_-]+)/)?.[1];
  return link;
}

/** The audit events of one action, for one person. */
const auditOf = (action: string, actorEmail: string) =>
  db.prisma.auditEvent.findMany({
    where: { workspaceId: "ws-r", action, actorEmail },
    select: { action: true, targetLabel: true, ip: true, detail: true },
  });

const signIn = (email: string, password: string) => signInAdmin({ db, limiters }, { email, password }, `198.51.100.${++ipCounter % 250}`);

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isAppError(error)) throw new Error(`expected an AppError, got ${String(error)}`);
  return { status: error.status, message: error.message, retryAfter: error.headers["retry-after"] };
}

describe("asking for a reset link", () => {
  it("emails an active person a one-time link valid 60 minutes, and stores only the token's hash", async () => {
    const token = await ask("ada@example.com");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: "ada@example.com", subject: "Reset your Parley password" });
    expect(sent[0]?.text).toContain("expires in 60 minutes");
    const rows = await db.prisma.passwordReset.findMany({ where: { userId: "ada" } });
    expect(rows).toEqual([
      expect.objectContaining({
        tokenHash: createHash("sha256").update(token!).digest("hex"),
        createdAt: T0,
        expiresAt: at(PASSWORD_RESET_TTL_SECONDS),
        usedAt: null,
      }),
    ]);
    expect(JSON.stringify(rows)).not.toContain(token);
    const audit = await auditOf("account.password.reset.requested", "ada@example.com");
    expect(audit).toEqual([expect.objectContaining({ targetLabel: "ada@example.com", ip: expect.stringMatching(/^203\.0\.113\./) })]);
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it("says the same for an unknown or deactivated address, and sends nothing", async () => {
    const before = await db.prisma.passwordReset.count();
    expect(await ask("nobody@example.com")).toBeUndefined();
    expect(await ask("gone@example.com")).toBeUndefined();
    expect(sent).toHaveLength(0);
    expect(await db.prisma.passwordReset.count()).toBe(before);
  });

  it("answers without waiting for the email (which would tell that the address exists)", async () => {
    const stuck: Mailer = { send: () => new Promise(() => {}), close() {} };
    const answer = await Promise.race([
      requestPasswordReset({ ...deps(), mailer: stuck }, { email: "bob@example.com" }, client(), T0),
      new Promise((resolve) => setTimeout(() => resolve("still waiting"), 2_000)),
    ]);
    expect(answer).toMatchObject({ message: PASSWORD_RESET_REQUESTED });
  });

  it("is refused without a mailer (no SMTP_URL)", async () => {
    expect(await refusal(requestPasswordReset({ db, limiters, appUrl: APP_URL }, { email: "ada@example.com" }, client(), T0))).toEqual({
      status: 404,
      message: "Password reset by email is not available on this server. Ask an owner of the workspace to reset your password.",
      retryAfter: undefined,
    });
  });

  it("refuses past the IP's budget and past the address's budget with 429, whether or not the address exists", async () => {
    freezeClockAtWindowStart(60 * 60);
    const ip = client("192.0.2.10");
    for (let i = 0; i < PASSWORD_RESET_REQUESTS_PER_IP_PER_WINDOW; i++) await ask(`someone-${i}@example.com`, T0, ip);
    const refused = await refusal(requestPasswordReset(deps(), { email: "cyd@example.com" }, ip, T0));
    expect(refused).toEqual({ status: 429, message: THROTTLED, retryAfter: expect.stringMatching(/^\d+$/) });

    for (const email of ["cyd@example.com", "unknown-cyd@example.com"]) {
      for (let i = 0; i < PASSWORD_RESET_REQUESTS_PER_EMAIL_PER_HOUR; i++) await ask(email);
      expect(await refusal(requestPasswordReset(deps(), { email }, client(), T0))).toEqual({
        status: 429,
        message: THROTTLED,
        retryAfter: expect.stringMatching(/^\d+$/),
      });
    }
  });
});

describe("budgets of an IPv6 client", () => {
  // A host holds a whole /64 and may send from any of its addresses: a budget per full address
  // would let it try passwords and ask for links without end.
  const inNetwork = (n: number) => `2001:db8:77:1:${n.toString(16)}::1`;

  it("counts failed sign-ins of every address of one /64 together: the next one is refused, even with the right password", async () => {
    freezeClockAtWindowStart(15 * 60);
    for (let i = 0; i < FAILED_SIGN_INS_PER_WINDOW; i++) {
      await expect(signInAdmin({ db, limiters }, { email: "bob@example.com", password: "wrong" }, inNetwork(i))).resolves.toBeNull();
    }
    expect(await refusal(signInAdmin({ db, limiters }, { email: "bob@example.com", password: "old password" }, inNetwork(99)))).toEqual({
      status: 429,
      message: "Too many failed sign-ins. Try again later.",
      retryAfter: expect.stringMatching(/^\d+$/),
    });
    // Another network is not held back by this one.
    await expect(
      signInAdmin({ db, limiters }, { email: "bob@example.com", password: "old password" }, "2001:db8:77:2::1"),
    ).resolves.toMatchObject({
      userId: "bob",
    });
  });

  it("counts reset links asked for from every address of one /64 together", async () => {
    freezeClockAtWindowStart(60 * 60);
    for (let i = 0; i < PASSWORD_RESET_REQUESTS_PER_IP_PER_WINDOW; i++)
      await ask(`v6-someone-${i}@example.com`, T0, client(`2001:db8:78:1::${i + 1}`));
    expect(await refusal(requestPasswordReset(deps(), { email: "v6-other@example.com" }, client("2001:db8:78:1:dead::1"), T0))).toEqual({
      status: 429,
      message: THROTTLED,
      retryAfter: expect.stringMatching(/^\d+$/),
    });
  });
});

describe("using a reset link", () => {
  it("sets the new password once, ends every session of the person, and uses up the link", async () => {
    const token = (await ask("dee@example.com"))!;
    const sessions = await Promise.all([0, 1].map(() => startSession(db, { userId: "dee", ip: "198.51.100.1", userAgent: "Chrome" }, T0)));
    expect(await openPasswordReset(db, token, at(60))).toMatchObject({ email: "dee@example.com" });

    await expect(completePasswordReset(db, { token, password: "new password" }, client(), at(60))).resolves.toEqual({
      email: "dee@example.com",
      endedSessions: 2,
    });
    for (const session of sessions) expect(await checkSession(db, { sessionId: session.id, userId: "dee" }, at(61))).toBeNull();
    await expect(signIn("dee@example.com", "old password")).resolves.toBeNull();
    await expect(signIn("dee@example.com", "new password")).resolves.toMatchObject({ userId: "dee" });

    // Twice: the link is used.
    expect(await refusal(completePasswordReset(db, { token, password: "another password" }, client(), at(61)))).toEqual({
      status: 404,
      message: INVALID,
      retryAfter: undefined,
    });
    expect(await refusal(openPasswordReset(db, token, at(61)))).toMatchObject({ status: 404, message: INVALID });
    await expect(signIn("dee@example.com", "new password")).resolves.toMatchObject({ userId: "dee" });
    expect(await auditOf("account.password.reset.completed", "dee@example.com")).toEqual([
      expect.objectContaining({ targetLabel: "dee@example.com" }),
    ]);
  });

  it("works until 60 minutes after it was sent, not at 60 minutes", async () => {
    const token = (await ask("eve@example.com"))!;
    const ttl = PASSWORD_RESET_TTL_SECONDS;
    expect(await openPasswordReset(db, token, at(ttl - 1))).toMatchObject({ email: "eve@example.com" });
    expect(await refusal(openPasswordReset(db, token, at(ttl)))).toMatchObject({ status: 404, message: INVALID });
    expect(await refusal(completePasswordReset(db, { token, password: "new password" }, client(), at(ttl)))).toMatchObject({
      status: 404,
      message: INVALID,
    });
    await expect(signIn("eve@example.com", "old password")).resolves.toMatchObject({ userId: "eve" });
  });

  it("a newer link and the older one: using either uses up both; a wrong token is not valid", async () => {
    const older = (await ask("bob@example.com"))!;
    sent.length = 0;
    const newer = (await ask("bob@example.com", at(10)))!;
    expect(newer).not.toBe(older);
    await completePasswordReset(db, { token: newer, password: "bob new password" }, client(), at(20));
    expect(await refusal(openPasswordReset(db, older, at(21)))).toMatchObject({ status: 404, message: INVALID });
    expect(await refusal(openPasswordReset(db, `${newer}x`, at(21)))).toMatchObject({ status: 404, message: INVALID });
    expect(await refusal(openPasswordReset(db, "x".repeat(201), at(21)))).toMatchObject({ status: 404, message: INVALID });
  });

  it("follows the password rule of everywhere else", () => {
    const parsed = completePasswordResetInput.safeParse({ token: "t", password: "short" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe("Use at least 8 characters");
  });
});

describe("sessions named by browser, and sign out everywhere else", () => {
  it("names each session, lists this one first and marked, and ends every other one", async () => {
    const linux = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const iphone =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
    const here = await startSession(db, { userId: "cyd", ip: "127.0.0.1", userAgent: linux }, T0);
    const phone = await startSession(db, { userId: "cyd", ip: "198.51.100.9", userAgent: iphone }, at(1));
    const scope = { userId: "cyd", workspaceId: "ws-r", role: "owner" as const, sessionId: here.id };
    const listed = await ownSessions(db, scope, at(2));
    expect(listed.map(({ browser, ip, current }) => ({ browser, ip, current }))).toEqual([
      { browser: "Chrome on Linux", ip: "127.0.0.1", current: true },
      { browser: "Safari on iOS", ip: "198.51.100.9", current: false },
    ]);

    await expect(endOtherSessions({ db, limiters }, scope, at(3))).resolves.toEqual({ endedSessions: 1 });
    expect(await checkSession(db, { sessionId: phone.id, userId: "cyd" }, at(4))).toBeNull();
    expect(await checkSession(db, { sessionId: here.id, userId: "cyd" }, at(4))).not.toBeNull();
    expect(await auditOf("account.sessions.ended", "cyd@example.com")).toEqual([expect.objectContaining({ detail: { ended: 1 } })]);
    await expect(endOtherSessions({ db, limiters }, scope, at(5))).resolves.toEqual({ endedSessions: 0 });
  });
});
