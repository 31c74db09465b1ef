// Panel sessions end on the server: a session cookie kept after sign-out (or after all of the
// user's sessions were ended) opens nothing, neither tRPC nor the key routes, while the user's other
// sessions go on. The cookie is made as next-auth makes it (authorize, then the jwt callback,
// then encode) and sign-out runs next-auth's signOut event, as its sign-out route does.
import { endAllSessions, hashPassword } from "@parley/core/people";
import { createTestContext, type TestContext } from "@parley/testing/context";
import type { User } from "next-auth";
import { decode, encode, type JWT } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizeCredentials, createAuthOptions, readSession } from "~/server/auth.ts";
import { trpcResponse } from "~/server/routes/trpc.ts";
import { type AppServer, startAppServer } from "./support/app-server.ts";

const SECRET = "s".repeat(32);
const PASSWORD = "correct horse battery";
let ctx: TestContext;
let server: AppServer;
let ipCounter = 0;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.db.prisma.workspace.create({ data: { id: "ws-1", name: "One" } });
  await ctx.db.prisma.user.create({
    data: { id: "user-1", workspaceId: "ws-1", email: "admin@example.com", name: "Ada", passwordHash: await hashPassword(PASSWORD) },
  });
  await ctx.db.prisma.agent.create({ data: { id: "agent-1", workspaceId: "ws-1", name: "Agent", httpApiEnabled: true } });
  server = await startAppServer(ctx, { sessionSecret: SECRET });
});

afterAll(async () => {
  await server?.close();
  await ctx?.close();
});

const options = () => createAuthOptions(async () => ctx);

/** Signs in as next-auth does; returns the Cookie header of the new session. */
async function signIn(): Promise<string> {
  ipCounter += 1;
  const user = (await authorizeCredentials(
    ctx,
    { email: "admin@example.com", password: PASSWORD },
    { "x-parley-client-ip": `203.0.113.${ipCounter}`, "user-agent": "Firefox/140" },
  )) as User;
  const jwt = options().callbacks!.jwt!;
  const token = (await jwt({ token: { sub: user.id, email: user.email, name: user.name }, user, account: null } as Parameters<
    typeof jwt
  >[0])) as JWT;
  return `next-auth.session-token=${await encode({ token, secret: SECRET })}`;
}

/** Signs out as next-auth's sign-out route does: the signOut event with the cookie's token. */
async function signOut(cookie: string): Promise<void> {
  const token = await decode({ token: cookie.split("=")[1], secret: SECRET });
  const signOutEvent = options().events?.signOut;
  if (!signOutEvent) throw new Error("no signOut event");
  await signOutEvent({ token: token! } as Parameters<typeof signOutEvent>[0]);
}

const session = (cookie: string) =>
  readSession(new Request("http://localhost:3000/panel", { headers: { cookie } }), {
    secret: SECRET,
    secureCookie: false,
    db: ctx.db,
    now: ctx.now(),
  });

async function trpcStatus(cookie: string): Promise<number> {
  const request = new Request(`${ctx.appUrl}/api/trpc/agents.list`, { headers: { cookie } });
  return (await trpcResponse(ctx, request, await session(cookie))).status;
}

async function keyRoute(cookie: string, method: "POST" | "DELETE"): Promise<Response> {
  return fetch(`${server.url}/api/agents/agent-1/http-api-key`, { method, headers: { cookie, origin: server.url } });
}

describe("panel sessions", () => {
  it("start at sign-in, recorded with the client's IP and browser, and open tRPC and the key routes", async () => {
    const cookie = await signIn();
    const admin = await session(cookie);
    expect(admin).toMatchObject({ userId: "user-1", workspaceId: "ws-1", email: "admin@example.com", name: "Ada" });
    expect(await ctx.db.prisma.session.findUniqueOrThrow({ where: { id: admin!.sessionId } })).toMatchObject({
      userId: "user-1",
      revokedAt: null,
      ip: `203.0.113.${ipCounter}`,
      userAgent: "Firefox/140",
    });
    expect(await trpcStatus(cookie)).toBe(200);
    expect((await keyRoute(cookie, "POST")).status).toBe(201);
    expect((await keyRoute(cookie, "DELETE")).status).toBe(204);
  });

  it("end at sign-out: the kept cookie gets 401 from tRPC and the key routes; another session of the user goes on", async () => {
    const kept = await signIn();
    const other = await signIn();
    await signOut(kept);
    expect(await session(kept)).toBeNull();
    expect(await trpcStatus(kept)).toBe(401);
    for (const method of ["POST", "DELETE"] as const) {
      const response = await keyRoute(kept, method);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: "Unauthorized" });
    }
    // next-auth's own session endpoint refuses it too (the jwt callback throws, the cookie is cleared).
    const jwt = options().callbacks!.jwt!;
    const token = await decode({ token: kept.split("=")[1], secret: SECRET });
    await expect(jwt({ token: token! } as Parameters<typeof jwt>[0])).rejects.toThrow("The session has ended");

    expect(await session(other)).toMatchObject({ userId: "user-1" });
    expect(await trpcStatus(other)).toBe(200);
    expect((await keyRoute(other, "POST")).status).toBe(201);
  });

  it("all end when all of the user's sessions are ended (password change, deactivation)", async () => {
    const cookies = [await signIn(), await signIn()];
    for (const cookie of cookies) expect(await trpcStatus(cookie)).toBe(200);
    expect(await endAllSessions(ctx.db, "user-1", ctx.now())).toBeGreaterThanOrEqual(2);
    for (const cookie of cookies) {
      expect(await session(cookie)).toBeNull();
      expect(await trpcStatus(cookie)).toBe(401);
      expect((await keyRoute(cookie, "POST")).status).toBe(401);
    }
    // Signing in again starts a new one.
    expect(await trpcStatus(await signIn())).toBe(200);
  });

  it("a cookie made before sessions were recorded (no session id) opens nothing", async () => {
    const cookie = `next-auth.session-token=${await encode({ token: { sub: "user-1", userId: "user-1", workspaceId: "ws-1" }, secret: SECRET })}`;
    expect(await session(cookie)).toBeNull();
    expect(await trpcStatus(cookie)).toBe(401);
  });
});
