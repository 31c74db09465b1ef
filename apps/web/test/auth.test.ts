// Admin sign-in and sessions: the credentials check with its throttle (per email and IP, even the
// right password is refused while it lasts), the session cookie read back into a workspace scope,
// the JWT callbacks, and the secret kept in DATA_DIR when none is configured.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import type { AppError } from "@parley/core";
import { FAILED_SIGN_INS_PER_IP_PER_WINDOW, FAILED_SIGN_INS_PER_WINDOW } from "@parley/core/limits";
import { hashPassword, passwordWork, startSession, verifyPassword } from "@parley/core/people";
import { PASSWORD_CHECKS_AT_ONCE } from "@parley/core/people/limits";
import { freezeClockAtWindowStart } from "@parley/testing/clock";
import { createTestContext, type TestContext } from "@parley/testing/context";
import bcrypt from "bcryptjs";
import type { Session, User } from "next-auth";
import { encode, type JWT } from "next-auth/jwt";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { parseAppEnv } from "~/env.ts";
import { authorizeCredentials, createAuthOptions, readSession, resolveAuthSecret, signInRefusals } from "~/server/auth.ts";
import { withSignInRefusal } from "~/server/auth-request.ts";

const PASSWORD = "correct horse battery";
const SECRET = "s".repeat(32);
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.db.prisma.workspace.create({ data: { id: "ws-1", name: "One" } });
  await ctx.db.prisma.user.create({
    data: { id: "user-1", workspaceId: "ws-1", email: "admin@example.com", name: "Ada", passwordHash: await hashPassword(PASSWORD) },
  });
});

afterAll(async () => {
  await ctx?.close();
});

const from = (ip: string) => ({ "x-parley-client-ip": ip });
/** The throttle's tests run with the clock frozen 1 s into its 15-minute window. */
const atSignInWindowStart = () => freezeClockAtWindowStart(15 * 60);

describe("authorizeCredentials", () => {
  beforeEach(atSignInWindowStart);
  afterEach(() => vi.useRealTimers());

  it("returns the admin with their workspace and a new session for the right password (email case-insensitive)", async () => {
    expect(await authorizeCredentials(ctx, { email: " Admin@Example.com ", password: PASSWORD }, from("198.51.100.1"))).toEqual({
      id: "user-1",
      workspaceId: "ws-1",
      email: "admin@example.com",
      name: "Ada",
      sessionId: expect.any(String),
    });
  });

  it("returns null for a wrong password, an unknown email or missing fields", async () => {
    expect(await authorizeCredentials(ctx, { email: "admin@example.com", password: "wrong" }, from("198.51.100.2"))).toBeNull();
    expect(await authorizeCredentials(ctx, { email: "nobody@example.com", password: PASSWORD }, from("198.51.100.2"))).toBeNull();
    expect(await authorizeCredentials(ctx, { email: "admin@example.com" }, from("198.51.100.2"))).toBeNull();
    expect(await authorizeCredentials(ctx, undefined, from("198.51.100.2"))).toBeNull();
  });

  it(`refuses even the right password after ${FAILED_SIGN_INS_PER_WINDOW} failures for that email and IP`, async () => {
    const ip = from("198.51.100.3");
    for (let attempt = 0; attempt < FAILED_SIGN_INS_PER_WINDOW; attempt++) {
      expect(await authorizeCredentials(ctx, { email: "admin@example.com", password: `wrong-${attempt}` }, ip)).toBeNull();
    }
    await expect(authorizeCredentials(ctx, { email: "admin@example.com", password: PASSWORD }, ip)).rejects.toThrow(
      "Too many failed sign-ins. Try again later.",
    );
    await expect(authorizeCredentials(ctx, { email: "ADMIN@example.com", password: PASSWORD }, ip)).rejects.toThrow(
      "Too many failed sign-ins",
    );
    // Another IP, or another email from that IP, is not affected.
    expect(await authorizeCredentials(ctx, { email: "admin@example.com", password: PASSWORD }, from("198.51.100.4"))).toMatchObject({
      id: "user-1",
    });
    expect(await authorizeCredentials(ctx, { email: "other@example.com", password: "x" }, ip)).toBeNull();
  });

  it("answers a throttled sign-in 429 with Retry-After through next-auth's route (next-auth itself says 401)", async () => {
    const ip = from("198.51.100.13");
    for (let attempt = 0; attempt < FAILED_SIGN_INS_PER_WINDOW; attempt++) {
      await authorizeCredentials(ctx, { email: "admin@example.com", password: `wrong-${attempt}` }, ip);
    }
    const sign: { refusal?: AppError } = {};
    await expect(
      signInRefusals.run(sign, () => authorizeCredentials(ctx, { email: "admin@example.com", password: PASSWORD }, ip)),
    ).rejects.toThrow("Too many failed sign-ins. Try again later.");
    // next-auth's JSON answer to the panel's form: 401 and the error's URL.
    const url = "http://localhost:3000/api/auth/error?error=Too%20many%20failed%20sign-ins.%20Try%20again%20later.";
    const nextAuthAnswer = () =>
      new Response(JSON.stringify({ url }), {
        status: 401,
        headers: { "content-type": "application/json", "set-cookie": "next-auth.csrf-token=x" },
      });
    const answer = withSignInRefusal(nextAuthAnswer(), sign.refusal);
    expect(answer.status).toBe(429);
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(answer.headers.get("retry-after"))).toBeLessThanOrEqual(15 * 60);
    expect(answer.headers.get("set-cookie")).toBe("next-auth.csrf-token=x");
    expect(await answer.json()).toEqual({ url });
    // A sign-in the throttle did not refuse keeps next-auth's answer.
    const wrong: { refusal?: AppError } = {};
    await signInRefusals.run(wrong, () =>
      authorizeCredentials(ctx, { email: "admin@example.com", password: "wrong" }, from("198.51.100.14")),
    );
    expect(withSignInRefusal(nextAuthAnswer(), wrong.refusal).status).toBe(401);
  });

  it("counts only failures: successful sign-ins never throttle", async () => {
    const ip = from("198.51.100.5");
    for (let attempt = 0; attempt <= FAILED_SIGN_INS_PER_WINDOW; attempt++) {
      expect(await authorizeCredentials(ctx, { email: "admin@example.com", password: PASSWORD }, ip)).toMatchObject({ id: "user-1" });
    }
  });
});

describe("sign-in limits per IP and the cost of a hash", () => {
  beforeEach(atSignInWindowStart);
  afterEach(() => vi.useRealTimers());

  it(`refuses an IP after ${FAILED_SIGN_INS_PER_IP_PER_WINDOW} failures, whatever emails they named, even the right password`, async () => {
    const ip = from("198.51.100.20");
    for (let attempt = 0; attempt < FAILED_SIGN_INS_PER_IP_PER_WINDOW; attempt++) {
      // A new email each time: the budget per email and IP never runs out.
      expect(await authorizeCredentials(ctx, { email: `guess-${attempt}@example.com`, password: "wrong" }, ip)).toBeNull();
    }
    await expect(authorizeCredentials(ctx, { email: "another@example.com", password: "wrong" }, ip)).rejects.toThrow(
      "Too many failed sign-ins. Try again later.",
    );
    await expect(authorizeCredentials(ctx, { email: "admin@example.com", password: PASSWORD }, ip)).rejects.toThrow(
      "Too many failed sign-ins",
    );
    // Another IP is not affected.
    expect(await authorizeCredentials(ctx, { email: "admin@example.com", password: PASSWORD }, from("198.51.100.21"))).toMatchObject({
      id: "user-1",
    });
  });

  it("keeps the event loop free while passwords are checked (the hash runs off the main thread)", async () => {
    // Ten sign-ins at once, right and wrong passwords and unknown emails, from different IPs.
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const utilisation = performance.eventLoopUtilization();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        authorizeCredentials(
          ctx,
          { email: index % 3 === 2 ? `nobody-${index}@example.com` : "admin@example.com", password: index % 2 ? PASSWORD : "wrong" },
          from(`198.51.101.${index}`),
        ),
      ),
    );
    const { utilization, idle, active } = performance.eventLoopUtilization(utilisation);
    delay.disable();
    expect(results.filter(Boolean)).toHaveLength(4);
    // bcryptjs hashed on this thread in 100 ms slices: the loop was busy all along (utilisation
    // near 1) and a timer waited 100 ms and more (the median delay too). Now the loop idles while
    // the thread pool hashes; the median delay is the timer's resolution plus scheduling noise (the
    // longest stall is left out: on a loaded machine the OS alone can cause one).
    const medianDelayMs = delay.percentile(50) / 1e6;
    const label = `loop busy ${(utilization * 100).toFixed(0)}% of ${(idle + active).toFixed(0)} ms, median timer delay ${medianDelayMs.toFixed(1)} ms`;
    expect(idle + active, label).toBeGreaterThan(100);
    expect(utilization, label).toBeLessThan(0.5);
    expect(medianDelayMs, label).toBeLessThan(25);
  });

  it(`runs at most ${PASSWORD_CHECKS_AT_ONCE} password hashes at once: a flood queues`, async () => {
    let mostAtOnce = 0;
    let mostWaiting = 0;
    const sample = setInterval(() => {
      mostAtOnce = Math.max(mostAtOnce, passwordWork.activeCount);
      mostWaiting = Math.max(mostWaiting, passwordWork.pendingCount);
    }, 1);
    await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        authorizeCredentials(ctx, { email: "admin@example.com", password: "wrong" }, from(`198.51.102.${index}`)),
      ),
    );
    clearInterval(sample);
    expect(mostAtOnce).toBe(PASSWORD_CHECKS_AT_ONCE);
    expect(mostWaiting).toBeGreaterThan(0);
  });

  it("still accepts a bcrypt hash made before, and replaces it with the current hash at that sign-in", async () => {
    const legacy = await bcrypt.hash("legacy password", 4);
    await ctx.db.prisma.user.create({
      data: { id: "user-legacy", workspaceId: "ws-1", email: "legacy@example.com", name: "Old", passwordHash: legacy },
    });
    expect(await authorizeCredentials(ctx, { email: "legacy@example.com", password: "wrong" }, from("198.51.100.30"))).toBeNull();
    expect((await ctx.db.prisma.user.findUniqueOrThrow({ where: { id: "user-legacy" } })).passwordHash).toBe(legacy);
    expect(
      await authorizeCredentials(ctx, { email: "legacy@example.com", password: "legacy password" }, from("198.51.100.30")),
    ).toMatchObject({
      id: "user-legacy",
    });
    const migrated = (await ctx.db.prisma.user.findUniqueOrThrow({ where: { id: "user-legacy" } })).passwordHash;
    expect(migrated).toMatch(/^\$scrypt\$/);
    expect(await verifyPassword("legacy password", migrated)).toBe(true);
    expect(
      await authorizeCredentials(ctx, { email: "legacy@example.com", password: "legacy password" }, from("198.51.100.31")),
    ).toMatchObject({
      id: "user-legacy",
    });
  });
});

describe("session cookie", () => {
  const request = (cookie?: string, headers: Record<string, string> = {}) =>
    new Request("http://localhost:3000/api/trpc/agents.list", { headers: { ...(cookie ? { cookie } : {}), ...headers } });
  const read = (req: Request, options: { secret: string; secureCookie: boolean }) =>
    readSession(req, { ...options, db: ctx.db, now: new Date() });
  let sessionId: string;
  beforeAll(async () => {
    sessionId = (await startSession(ctx.db, { userId: "user-1", ip: null, userAgent: null }, new Date())).id;
  });

  it("reads the admin of a live session from the session token", async () => {
    const token = await encode({ token: { sub: "user-1", userId: "user-1", workspaceId: "ws-1", sessionId }, secret: SECRET });
    const admin = { sessionId, userId: "user-1", workspaceId: "ws-1", email: "admin@example.com", name: "Ada" };
    expect(await read(request(`theme=dark; next-auth.session-token=${token}`), { secret: SECRET, secureCookie: false })).toMatchObject(
      admin,
    );
    // https deployments use the __Secure- cookie name.
    expect(await read(request(`__Secure-next-auth.session-token=${token}`), { secret: SECRET, secureCookie: true })).toMatchObject(admin);
  });

  it("returns null without a valid token", async () => {
    const token = await encode({ token: { userId: "user-1", workspaceId: "ws-1", sessionId }, secret: SECRET });
    const options = { secret: SECRET, secureCookie: false };
    expect(await read(request(), options)).toBeNull();
    expect(await read(request(`next-auth.session-token=${token}`), { secret: "t".repeat(32), secureCookie: false })).toBeNull();
    expect(await read(request(`next-auth.session-token=${token.slice(0, -3)}abc`), options)).toBeNull();
    expect(await read(request(`next-auth.session-token=${token}`), { secret: SECRET, secureCookie: true })).toBeNull();
    // next-auth's Authorization header fallback is not accepted: only the cookie is a session.
    expect(await read(request(undefined, { authorization: `Bearer ${token}` }), options)).toBeNull();
    const scopeless = await encode({ token: { sub: "user-1" }, secret: SECRET });
    expect(await read(request(`next-auth.session-token=${scopeless}`), options)).toBeNull();
    // The session of another user's id is not this user's.
    const borrowed = await encode({ token: { userId: "user-legacy", workspaceId: "ws-1", sessionId }, secret: SECRET });
    expect(await read(request(`next-auth.session-token=${borrowed}`), options)).toBeNull();
  });

  it("puts the user id, workspace and session into the token at sign-in, and the scope into the session", async () => {
    const user = { id: "user-1", workspaceId: "ws-1", email: "admin@example.com", name: "Ada", sessionId } satisfies User;
    const { jwt, session } = createAuthOptions(async () => ctx).callbacks ?? {};
    if (!jwt || !session) throw new Error("callbacks missing");
    const token = (await jwt({ token: { email: user.email, name: user.name, sub: user.id }, user, account: null } as Parameters<
      typeof jwt
    >[0])) as JWT;
    expect(token).toMatchObject({ userId: "user-1", workspaceId: "ws-1", sessionId });
    // Later calls (no user) keep the token as it is while the session lives.
    expect(await jwt({ token, account: null } as unknown as Parameters<typeof jwt>[0])).toEqual(token);
    const result = (await session({ session: { expires: "2099-01-01T00:00:00.000Z" } as Session, token } as Parameters<
      typeof session
    >[0])) as Session;
    expect(result.user).toEqual({ id: "user-1", workspaceId: "ws-1", email: "admin@example.com", name: "Ada" });
  });
});

describe("resolveAuthSecret", () => {
  const dirs: string[] = [];
  const tempFile = () => {
    const dir = mkdtempSync(path.join(tmpdir(), "parley-secret-"));
    dirs.push(dir);
    return path.join(dir, "data", "auth-secret");
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("uses NEXTAUTH_SECRET when set, without writing a file", () => {
    const file = tempFile();
    expect(resolveAuthSecret({ NEXTAUTH_SECRET: SECRET }, file)).toBe(SECRET);
    expect(() => statSync(file)).toThrow();
  });

  it("generates a secret once into DATA_DIR (mode 0600) and reuses it after a restart", () => {
    const file = tempFile();
    const first = resolveAuthSecret({}, file);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(resolveAuthSecret({}, file)).toBe(first);
  });

  it("is required by the environment check in production server mode, and at least 32 characters", () => {
    expect(() => parseAppEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x" })).toThrow(
      "NEXTAUTH_SECRET: required in production with DATABASE_URL (every instance must use the same secret)",
    );
    expect(parseAppEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x", NEXTAUTH_SECRET: SECRET }).NEXTAUTH_SECRET).toBe(SECRET);
    expect(parseAppEnv({ NODE_ENV: "production" }).NEXTAUTH_SECRET).toBeUndefined();
    expect(() => parseAppEnv({ NEXTAUTH_SECRET: "too-short" })).toThrow("NEXTAUTH_SECRET: must be at least 32 characters");
  });

  it("refuses a stored secret that is too short", () => {
    const file = tempFile();
    resolveAuthSecret({}, file);
    writeFileSync(file, "short\n");
    expect(() => resolveAuthSecret({}, file)).toThrow(/does not hold a usable secret/);
  });
});
