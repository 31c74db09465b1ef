// POST/DELETE /api/agents/{agent_id}/http-api-key (spec 4.6) through the route handlers, with a
// real database and an explicit session: 201 with the key shown once, 204, 401, 403, 404, and
// what is stored.

import { hashAgentKey } from "@parley/core/agents";
import type { AdminScope } from "@parley/core/people";
import { createTestContext, type TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpApiKey, revokeHttpApiKey } from "./support/routes.ts";

const APP_URL = "http://localhost:3000";
const NOW = new Date("2026-11-20T12:00:00.000Z");
let ctx: TestContext;
const alpha: AdminScope = { userId: "alpha-admin", workspaceId: "alpha-ws", role: "owner" };
const beta: AdminScope = { userId: "beta-admin", workspaceId: "beta-ws", role: "owner" };

beforeAll(async () => {
  ctx = await createTestContext({ appUrl: APP_URL, now: () => NOW });
  for (const scope of [alpha, beta]) {
    const prefix = scope.workspaceId.replace("-ws", "");
    await ctx.db.prisma.workspace.create({ data: { id: scope.workspaceId, name: prefix } });
    await ctx.db.prisma.user.create({
      data: { id: scope.userId, workspaceId: scope.workspaceId, email: `${prefix}@example.com`, passwordHash: "x" },
    });
    await ctx.db.prisma.agent.create({
      data: { id: `${prefix}-agent`, workspaceId: scope.workspaceId, name: prefix, httpApiEnabled: true },
    });
  }
});

afterAll(async () => {
  await ctx?.close();
});

function keyRequest(method: "POST" | "DELETE", agentId: string, headers: Record<string, string> = {}): Request {
  return new Request(`${APP_URL}/api/agents/${agentId}/http-api-key`, { method, headers: { host: "localhost:3000", ...headers } });
}

async function expectError(response: Response, status: number, error: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(response.headers.get("x-request-id")).toBeTruthy();
  expect(await response.json()).toEqual({ error });
}

const storedKey = async (agentId: string) =>
  ctx.db.prisma.agent.findUniqueOrThrow({ where: { id: agentId }, select: { keyHash: true, keyLast4: true, keyCreatedAt: true } });

describe("POST /api/agents/{agent_id}/http-api-key", () => {
  it("answers 201 with the new key once, stores only its hash, and rotates", async () => {
    const response = await createHttpApiKey(
      ctx,
      keyRequest("POST", "alpha-agent", { origin: APP_URL }),
      { agent_id: "alpha-agent" },
      alpha,
    );
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as { data: { key: string; last4: string; createdAt: string } };
    expect(Object.keys(body)).toEqual(["data"]);
    expect(body.data).toEqual({
      key: expect.stringMatching(/^pk_[A-Za-z0-9_-]{43}$/),
      last4: body.data.key.slice(-4),
      createdAt: NOW.toISOString(),
    });
    expect(await storedKey("alpha-agent")).toEqual({ keyHash: hashAgentKey(body.data.key), keyLast4: body.data.last4, keyCreatedAt: NOW });

    // Generating again replaces the key: the stored hash is the new one's only.
    const rotated = await createHttpApiKey(ctx, keyRequest("POST", "alpha-agent"), { agent_id: "alpha-agent" }, alpha);
    expect(rotated.status).toBe(201);
    const next = ((await rotated.json()) as { data: { key: string } }).data.key;
    expect(next).not.toBe(body.data.key);
    expect((await storedKey("alpha-agent")).keyHash).toBe(hashAgentKey(next));
  });

  it("answers 401 without a session", async () => {
    await expectError(
      await createHttpApiKey(ctx, keyRequest("POST", "alpha-agent"), { agent_id: "alpha-agent" }, null),
      401,
      "Unauthorized",
    );
  });

  it("answers 403 to a foreign Origin (cookie-authenticated cross-site write) and changes nothing", async () => {
    const before = await storedKey("beta-agent");
    await expectError(
      await createHttpApiKey(ctx, keyRequest("POST", "beta-agent", { origin: "https://evil.example" }), { agent_id: "beta-agent" }, beta),
      403,
      "Forbidden",
    );
    await expectError(
      await revokeHttpApiKey(ctx, keyRequest("DELETE", "beta-agent", { origin: "null" }), { agent_id: "beta-agent" }, beta),
      403,
      "Forbidden",
    );
    // A browser that leaves Origin out still marks a cross-site request.
    await expectError(
      await revokeHttpApiKey(ctx, keyRequest("DELETE", "beta-agent", { "sec-fetch-site": "cross-site" }), { agent_id: "beta-agent" }, beta),
      403,
      "Forbidden",
    );
    expect(await storedKey("beta-agent")).toEqual(before);
  });

  it("accepts the request's own host as origin (the app reached under another name)", async () => {
    const request = keyRequest("POST", "beta-agent", { host: "parley.internal:8080", origin: "http://parley.internal:8080" });
    expect((await createHttpApiKey(ctx, request, { agent_id: "beta-agent" }, beta)).status).toBe(201);
  });

  it("answers 404 `Agent not found` for another workspace's agent and a missing one", async () => {
    const before = await storedKey("alpha-agent");
    await expectError(
      await createHttpApiKey(ctx, keyRequest("POST", "alpha-agent"), { agent_id: "alpha-agent" }, beta),
      404,
      "Agent not found",
    );
    await expectError(await createHttpApiKey(ctx, keyRequest("POST", "nope"), { agent_id: "nope" }, beta), 404, "Agent not found");
    expect(await storedKey("alpha-agent")).toEqual(before);
  });
});

describe("DELETE /api/agents/{agent_id}/http-api-key", () => {
  it("answers 204 and clears the key (again 204 when none is left)", async () => {
    await createHttpApiKey(ctx, keyRequest("POST", "alpha-agent"), { agent_id: "alpha-agent" }, alpha);
    const response = await revokeHttpApiKey(
      ctx,
      keyRequest("DELETE", "alpha-agent", { origin: APP_URL }),
      { agent_id: "alpha-agent" },
      alpha,
    );
    expect(response.status).toBe(204);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.text()).toBe("");
    expect(await storedKey("alpha-agent")).toEqual({ keyHash: null, keyLast4: null, keyCreatedAt: null });
    expect((await revokeHttpApiKey(ctx, keyRequest("DELETE", "alpha-agent"), { agent_id: "alpha-agent" }, alpha)).status).toBe(204);
  });

  it("answers 401 without a session and 404 for another workspace's agent", async () => {
    const issued = await createHttpApiKey(ctx, keyRequest("POST", "beta-agent"), { agent_id: "beta-agent" }, beta);
    const key = ((await issued.json()) as { data: { key: string } }).data.key;
    await expectError(
      await revokeHttpApiKey(ctx, keyRequest("DELETE", "beta-agent"), { agent_id: "beta-agent" }, null),
      401,
      "Unauthorized",
    );
    await expectError(
      await revokeHttpApiKey(ctx, keyRequest("DELETE", "beta-agent"), { agent_id: "beta-agent" }, alpha),
      404,
      "Agent not found",
    );
    expect((await storedKey("beta-agent")).keyHash).toBe(hashAgentKey(key));
  });
});
