// Behind a trusted proxy (TRUST_PROXY=true), the limits keyed by client IP use the address the
// proxy saw, so a client that writes its own X-Forwarded-For entries gains nothing: the failed-key
// guard of the messages API and the sign-in throttle. (The help limit: help.test.ts; the widget:
// widget-socket.test.ts.)

import { FAILED_KEY_ATTEMPTS_PER_MINUTE, FAILED_SIGN_INS_PER_WINDOW } from "@parley/core/limits";
import { hashPassword } from "@parley/core/people";
import { freezeClockAtWindowStart } from "@parley/testing/clock";
import { createTestContext, type TestContext } from "@parley/testing/context";
import { createAgentWithKey, type TestAgent } from "@parley/testing/messaging";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { authorizeCredentials } from "~/server/auth.ts";
import { messagesRoute } from "./support/routes.ts";

const PROXY = "10.0.0.2";
const PASSWORD = "correct horse battery";
let ctx: TestContext;
let agent: TestAgent;

beforeAll(async () => {
  ctx = await createTestContext({ trustProxy: { hops: 1 } });
  await ctx.db.prisma.workspace.create({ data: { id: "ws-demo", name: "Proxy" } });
  await ctx.db.prisma.source.createMany({ data: ["src-start", "src-billing"].map((id) => ({ id, workspaceId: "ws-demo", name: id })) });
  await ctx.db.prisma.user.create({
    data: { id: "user-1", workspaceId: "ws-demo", email: "admin@example.com", name: "Ada", passwordHash: await hashPassword(PASSWORD) },
  });
  agent = await createAgentWithKey(ctx);
});

afterAll(async () => {
  await ctx?.close();
});

/** The headers the server entry and the proxy give a request: the proxy appends the client it saw. */
function viaProxy(client: string, spoofed: string): Record<string, string> {
  return { "x-parley-client-ip": PROXY, "x-forwarded-for": `${spoofed}, ${client}` };
}

describe("behind a trusted proxy", () => {
  afterEach(() => vi.useRealTimers());

  it("the failed-key guard counts the client the proxy saw, whatever it writes on the left", async () => {
    freezeClockAtWindowStart(60);
    const send = (authorization: string, headers: Record<string, string>) =>
      messagesRoute(
        ctx,
        new Request(`http://localhost/api/agent/${agent.id}/messages`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization, ...headers },
          body: JSON.stringify({ message: "hi" }),
        }),
        { agentId: agent.id },
      );
    for (let i = 0; i < FAILED_KEY_ATTEMPTS_PER_MINUTE; i++) {
      expect((await send(`Bearer pk_guess${i}`, viaProxy("203.0.113.5", `198.51.100.${i}`))).status).toBe(401);
    }
    expect((await send("Bearer pk_guess-more", viaProxy("203.0.113.5", "198.51.100.200"))).status).toBe(429);
    // Another client behind the same proxy is not blocked.
    expect((await send("Bearer pk_other", viaProxy("203.0.113.6", "198.51.100.200"))).status).toBe(401);
  });

  it("the sign-in throttle counts the client the proxy saw, whatever it writes on the left", async () => {
    freezeClockAtWindowStart(15 * 60);
    for (let attempt = 0; attempt < FAILED_SIGN_INS_PER_WINDOW; attempt++) {
      const headers = viaProxy("203.0.113.7", `198.51.100.${attempt}`);
      expect(await authorizeCredentials(ctx, { email: "admin@example.com", password: `wrong-${attempt}` }, headers)).toBeNull();
    }
    await expect(
      authorizeCredentials(ctx, { email: "admin@example.com", password: PASSWORD }, viaProxy("203.0.113.7", "198.51.100.99")),
    ).rejects.toThrow("Too many failed sign-ins");
    expect(
      await authorizeCredentials(ctx, { email: "admin@example.com", password: PASSWORD }, viaProxy("203.0.113.8", "198.51.100.99")),
    ).toMatchObject({ id: "user-1" });
  });
});
