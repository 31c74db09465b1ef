// /api/trpc over HTTP (the fetch adapter the Next route uses): statuses and bodies the panel sees
// for a signed-out request, a cross-site write, bad input (zod field errors), a foreign row, and
// a successful call; nothing is cacheable.

import { INBOX_SEARCHES_PER_MINUTE } from "@parley/core/conversations/limits";
import { ARTICLE_CONTENT_MAX_CHARS, PANEL_BATCH_CALLS_MAX } from "@parley/core/limits";
import type { AdminScope } from "@parley/core/people";
import { freezeClockAtWindowStart } from "@parley/testing/clock";
import { createTestContext, type TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { createPanelClient } from "~/panel/trpc-client.ts";
import { trpcResponse } from "~/server/routes/trpc.ts";

const APP_URL = "http://localhost:3000";
let ctx: TestContext;
const admin: AdminScope = { userId: "u1", workspaceId: "ws1", role: "owner" };
const outsider: AdminScope = { userId: "u2", workspaceId: "ws2", role: "owner" };

beforeAll(async () => {
  ctx = await createTestContext({ appUrl: APP_URL });
  for (const [scope, agentId] of [
    [admin, "agent-1"],
    [outsider, "agent-2"],
  ] as const) {
    await ctx.db.prisma.workspace.create({ data: { id: scope.workspaceId, name: scope.workspaceId } });
    await ctx.db.prisma.user.create({
      data: { id: scope.userId, workspaceId: scope.workspaceId, email: `${scope.userId}@example.com`, passwordHash: "x" },
    });
    await ctx.db.prisma.agent.create({ data: { id: agentId, workspaceId: scope.workspaceId, name: agentId } });
  }
});

afterAll(async () => {
  await ctx?.close();
});

const query = (path: string, input?: unknown) =>
  new Request(`${APP_URL}/api/trpc/${path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`, {
    headers: { host: "localhost:3000" },
  });
const mutation = (path: string, input: unknown, origin = APP_URL) =>
  new Request(`${APP_URL}/api/trpc/${path}`, {
    method: "POST",
    headers: { host: "localhost:3000", origin, "content-type": "application/json" },
    body: JSON.stringify(input),
  });

interface ErrorEnvelope {
  error: {
    message: string;
    code: number;
    data: {
      code: string;
      httpStatus: number;
      zodError: { fieldErrors: Record<string, string[]> } | null;
      issues: Array<{ path: Array<string | number>; message: string }> | null;
    };
  };
}

describe("/api/trpc", () => {
  it("answers 401 UNAUTHORIZED without a session", async () => {
    const response = await trpcResponse(ctx, query("agents.list"), null);
    expect(response.status).toBe(401);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as ErrorEnvelope;
    expect(body.error).toMatchObject({ message: "Unauthorized", data: { code: "UNAUTHORIZED", httpStatus: 401 } });
  });

  it("answers 403 to a mutation from a foreign origin and creates nothing", async () => {
    const response = await trpcResponse(ctx, mutation("agents.create", { name: "Evil" }, "https://evil.example"), admin);
    expect(response.status).toBe(403);
    expect(((await response.json()) as ErrorEnvelope).error).toMatchObject({ message: "Forbidden", data: { code: "FORBIDDEN" } });
    expect(await ctx.db.prisma.agent.count({ where: { name: "Evil" } })).toBe(0);
  });

  it("answers 400 with zod field errors for bad input", async () => {
    const response = await trpcResponse(ctx, mutation("agents.create", { name: "", id: "Not A Slug" }), admin);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as ErrorEnvelope;
    expect(error.data.code).toBe("BAD_REQUEST");
    expect(Object.keys(error.data.zodError?.fieldErrors ?? {}).sort()).toEqual(["id", "name"]);
    expect(error.data.zodError?.fieldErrors.name).toEqual(["Enter a name"]);
  });

  it("answers 400 with the reason in `details` when a webhook URL is refused", async () => {
    const response = await trpcResponse(
      ctx,
      mutation("webhooks.create", {
        url: "https://127.0.0.1/hook",
        description: "",
        allAgents: true,
        agentIds: [],
        eventTypes: ["conversation.created"],
      }),
      admin,
    );
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as ErrorEnvelope & { error: { data: { details: string | null } } };
    expect(error.message).toMatch(/^Webhook URLs must use https:\/\//);
    expect(error.data.details).toBe(
      "The URL must not point to a private, loopback or link-local address. Local addresses are allowed only while the server runs with WEBHOOKS_ALLOW_LOCAL=true (for development).",
    );
  });

  it("answers 404 with the error table's text for another workspace's agent", async () => {
    const response = await trpcResponse(ctx, query("agents.get", { id: "agent-2" }), admin);
    expect(response.status).toBe(404);
    expect(((await response.json()) as ErrorEnvelope).error).toMatchObject({
      message: "Agent not found",
      data: { code: "NOT_FOUND", httpStatus: 404 },
    });
  });

  it("runs queries and same-origin mutations", async () => {
    const created = await trpcResponse(ctx, mutation("agents.create", { name: "Helper", id: "helper" }), admin);
    expect(created.status).toBe(200);
    expect(created.headers.get("cache-control")).toBe("no-store");
    expect(((await created.json()) as { result: { data: { id: string } } }).result.data).toMatchObject({ id: "helper", name: "Helper" });

    const listed = await trpcResponse(ctx, query("agents.list"), admin);
    expect(listed.status).toBe(200);
    const agents = ((await listed.json()) as { result: { data: Array<{ id: string; createdAt: string }> } }).result.data;
    expect(agents.map((agent) => agent.id).sort()).toEqual(["agent-1", "helper"]);
    expect(agents[0]?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("answers 500 `Internal error` without the underlying message when the database fails", async () => {
    const broken = await createTestContext({ appUrl: APP_URL });
    await broken.close();
    const response = await trpcResponse(broken, query("agents.list"), admin);
    expect(response.status).toBe(500);
    const { error } = (await response.json()) as ErrorEnvelope;
    expect(error).toMatchObject({ message: "Internal error", data: { code: "INTERNAL_SERVER_ERROR", httpStatus: 500 } });
    expect(error.data).not.toHaveProperty("stack");
  });

  describe("articles.preview (the editor's preview)", () => {
    const reportedAttack = "[guide](javascript&#58;fetch('/api/trpc/keys.generate',{method:'POST'}))\n\n## Steps";

    it("renders a draft as the help page would, through the one sanitiser", async () => {
      const response = await trpcResponse(ctx, mutation("articles.preview", { content: reportedAttack }), admin);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(((await response.json()) as { result: { data: { html: string } } }).result.data).toEqual({
        html: "<p><a>guide</a></p>\n<h2>Steps</h2>\n",
      });
    });

    it("needs a session and the app's own origin", async () => {
      expect((await trpcResponse(ctx, mutation("articles.preview", { content: "x" }), null)).status).toBe(401);
      expect((await trpcResponse(ctx, mutation("articles.preview", { content: "x" }, "https://evil.example"), admin)).status).toBe(403);
    });

    it("takes drafts up to an article's size and refuses bigger ones", async () => {
      const largest = await trpcResponse(ctx, mutation("articles.preview", { content: "a".repeat(ARTICLE_CONTENT_MAX_CHARS) }), admin);
      expect(largest.status).toBe(200);
      const tooBig = await trpcResponse(ctx, mutation("articles.preview", { content: "a".repeat(ARTICLE_CONTENT_MAX_CHARS + 1) }), admin);
      expect(tooBig.status).toBe(400);
      const refused = ((await tooBig.json()) as ErrorEnvelope).error.data;
      // Written for the person at the form, not zod's own text.
      const message = `Use at most ${ARTICLE_CONTENT_MAX_CHARS.toLocaleString("en-US")} characters.`;
      expect(refused.zodError?.fieldErrors.content).toEqual([message]);
      expect(refused.issues).toEqual([{ path: ["content"], message }]);
    });
  });

  describe("batches", () => {
    const numbered = (inputs: unknown[]) => Object.fromEntries(inputs.map((input, index) => [index, input]));
    const batchQuery = (path: string, inputs: unknown[]) =>
      new Request(
        `${APP_URL}/api/trpc/${inputs.map(() => path).join(",")}?batch=1&input=${encodeURIComponent(JSON.stringify(numbered(inputs)))}`,
        { headers: { host: "localhost:3000" } },
      );
    const batchMutation = (path: string, inputs: unknown[]) =>
      new Request(`${APP_URL}/api/trpc/${inputs.map(() => path).join(",")}?batch=1`, {
        method: "POST",
        headers: { host: "localhost:3000", origin: APP_URL, "content-type": "application/json" },
        body: JSON.stringify(numbered(inputs)),
      });
    const tooMany = "Too many calls in one batch";

    it(`runs a batch of ${PANEL_BATCH_CALLS_MAX} calls`, async () => {
      const response = await trpcResponse(ctx, batchQuery("agents.list", Array(PANEL_BATCH_CALLS_MAX).fill(undefined)), admin);
      expect(response.status).toBe(200);
      expect(((await response.json()) as unknown[]).length).toBe(PANEL_BATCH_CALLS_MAX);
    });

    it("refuses a longer GET batch with one 400, as the panel's client reads it", async () => {
      const response = await trpcResponse(ctx, batchQuery("conversations.list", Array(180).fill({ q: "refund" })), admin);
      expect(response.status).toBe(400);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const body = (await response.json()) as ErrorEnvelope;
      expect(body.error).toMatchObject({ message: tooMany, data: { code: "BAD_REQUEST", httpStatus: 400 } });
    });

    it("refuses a longer POST batch before any call runs: nothing is created", async () => {
      const inputs = Array.from({ length: PANEL_BATCH_CALLS_MAX + 1 }, (_, index) => ({
        name: `Batched ${index}`,
        id: `batched-${index}`,
      }));
      const response = await trpcResponse(ctx, batchMutation("agents.create", inputs), admin);
      expect(response.status).toBe(400);
      expect(((await response.json()) as ErrorEnvelope).error.message).toBe(tooMany);
      expect(await ctx.db.prisma.agent.count({ where: { id: { startsWith: "batched-" } } })).toBe(0);
    });

    it("the panel's own client sends many calls made together as batches the server takes", async () => {
      const batchSizes: number[] = [];
      const client = createPanelClient({
        url: `${APP_URL}/api/trpc`,
        fetch: (url, init) => {
          const request = new Request(url, { ...init, headers: { ...init?.headers, host: "localhost:3000" } } as RequestInit);
          batchSizes.push(new URL(request.url).pathname.split(",").length);
          return trpcResponse(ctx, request, admin);
        },
      });
      const calls = 3 * PANEL_BATCH_CALLS_MAX + 1;
      const lists = await Promise.all(Array.from({ length: calls }, () => client.agents.list.query()));
      expect(lists.map((agents) => agents.length > 0)).toEqual(Array(calls).fill(true));
      expect(batchSizes).toEqual([PANEL_BATCH_CALLS_MAX, PANEL_BATCH_CALLS_MAX, PANEL_BATCH_CALLS_MAX, 1]);
    });

    it(`counts every search of a batch against the person's ${INBOX_SEARCHES_PER_MINUTE} a minute; listing without words is not counted`, async () => {
      const searcher: AdminScope = { userId: "searcher", workspaceId: "ws1", role: "support" };
      freezeClockAtWindowStart(60);
      onTestFinished(() => {
        vi.useRealTimers();
      });
      for (let sent = 0; sent < INBOX_SEARCHES_PER_MINUTE; sent += PANEL_BATCH_CALLS_MAX) {
        const calls = Math.min(PANEL_BATCH_CALLS_MAX, INBOX_SEARCHES_PER_MINUTE - sent);
        const response = await trpcResponse(ctx, batchQuery("conversations.list", Array(calls).fill({ q: `refund ${sent}` })), searcher);
        expect(response.status).toBe(200);
      }
      const refused = await trpcResponse(ctx, batchQuery("conversations.list", [{ q: "one more" }]), searcher);
      expect(refused.status).toBe(429);
      const [entry] = (await refused.json()) as ErrorEnvelope[];
      expect(entry?.error).toMatchObject({ message: "Rate limit exceeded", data: { code: "TOO_MANY_REQUESTS", httpStatus: 429 } });
      expect((await trpcResponse(ctx, batchQuery("conversations.list", [{}]), searcher)).status).toBe(200);
      // Another person's searches are their own.
      expect((await trpcResponse(ctx, batchQuery("conversations.list", [{ q: "refund" }]), admin)).status).toBe(200);
    });
  });
});
