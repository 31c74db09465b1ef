// agents.* and keys.* procedures through createCaller on a real database: sessions, the origin
// check of writes, workspace isolation, validation, and the key lifecycle (hash stored, rotation
// invalidates the previous key at once, revocation clears it).
import { authenticateAgent, hashAgentKey } from "@parley/core/agents";
import { KNOWLEDGE_INDEX_MAX_TEXT_BYTES } from "@parley/core/knowledge/limits";
import type { TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, NOW, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let b: Workspace;

beforeAll(async () => {
  ({ ctx, a, b } = await setup());
});

afterAll(async () => {
  await ctx?.close();
});

describe("session and origin", () => {
  it("refuses every procedure without a session", async () => {
    const anonymous = callerFor(ctx, null);
    await expect(anonymous.agents.list()).rejects.toMatchObject({ code: "UNAUTHORIZED", message: "Unauthorized" });
    await expect(anonymous.agents.create({ name: "X" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.keys.generate({ agentId: a.agentId })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.usage.summary()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await ctx.db.prisma.agent.count({ where: { name: "X" } })).toBe(0);
  });

  it("refuses writes from a foreign origin but still answers reads", async () => {
    const crossSite = callerFor(ctx, a.scope, { sameOrigin: false });
    await expect(crossSite.agents.update({ id: a.agentId, name: "Hijacked" })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "Forbidden",
    });
    await expect(crossSite.keys.generate({ agentId: a.agentId })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await crossSite.agents.get({ id: a.agentId })).name).toBe("alpha agent");
    expect(await ctx.db.prisma.agent.findUniqueOrThrow({ where: { id: a.agentId } })).toMatchObject({ name: "alpha agent", keyHash: null });
  });
});

describe("agents", () => {
  it("lists only the workspace's agents, without the key hash", async () => {
    const list = await callerFor(ctx, a.scope).agents.list();
    expect(list).toEqual([
      {
        id: a.agentId,
        name: "alpha agent",
        active: true,
        httpApiEnabled: false,
        engine: "knowledge",
        keyConfigured: false,
        keyLast4: null,
        keyCreatedAt: null,
        createdAt: expect.any(Date),
      },
    ]);
  });

  it("reads one agent in full", async () => {
    const agent = await callerFor(ctx, a.scope).agents.get({ id: a.agentId });
    expect(agent).toMatchObject({
      id: a.agentId,
      monthlyConversationLimit: null,
      monthlyTokenLimit: null,
      usageLimit: null,
      instructions: "",
      answerBeyondArticles: false,
      allowedOrigins: [],
      sourceIds: [a.sourceId],
    });
    expect(agent).not.toHaveProperty("keyHash");
  });

  it("creates agents with a chosen or generated id, refusing a taken or malformed id", async () => {
    const caller = callerFor(ctx, a.scope);
    const chosen = await caller.agents.create({ name: "  Sales  ", id: "sales-bot" });
    expect(chosen).toMatchObject({
      id: "sales-bot",
      name: "Sales",
      active: true,
      httpApiEnabled: false,
      keyConfigured: false,
      sourceIds: [],
    });
    const generated = await caller.agents.create({ name: "Generated" });
    expect(generated.id).toMatch(/^[a-z0-9]{20,}$/);
    expect(await ctx.db.prisma.agent.findUniqueOrThrow({ where: { id: generated.id } })).toMatchObject({
      workspaceId: a.scope.workspaceId,
    });

    // Ids are global: taken by another workspace is still taken.
    await expect(callerFor(ctx, b.scope).agents.create({ name: "Copy", id: "sales-bot" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "An agent with this id already exists",
    });
    await expect(caller.agents.create({ name: "Bad", id: "Bad Id" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.agents.create({ name: "" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.agents.create({ name: "x".repeat(101) })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("updates settings and limits", async () => {
    const caller = callerFor(ctx, a.scope);
    const { id } = await caller.agents.create({ name: "Editable" });
    const updated = await caller.agents.update({
      id,
      name: "Edited",
      active: false,
      httpApiEnabled: true,
      monthlyConversationLimit: 100,
      monthlyTokenLimit: 50_000,
      usageLimit: 0,
      engine: "llm",
      instructions: "Be brief.",
      answerBeyondArticles: true,
      allowedOrigins: ["https://www.example.com/", "http://localhost:5173", "https://www.example.com"],
    });
    expect(updated).toMatchObject({
      name: "Edited",
      active: false,
      httpApiEnabled: true,
      monthlyConversationLimit: 100,
      monthlyTokenLimit: 50_000,
      usageLimit: 0,
      engine: "llm",
      instructions: "Be brief.",
      answerBeyondArticles: true,
      allowedOrigins: ["https://www.example.com", "http://localhost:5173"],
    });
    expect((await ctx.db.prisma.agent.findUniqueOrThrow({ where: { id } })).answerBeyondArticles).toBe(true);
    await expect(caller.agents.update({ id, answerBeyondArticles: "yes" as unknown as boolean })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    // null lifts a limit; omitted fields stay.
    const lifted = await caller.agents.update({ id, monthlyConversationLimit: null });
    expect(lifted).toMatchObject({ monthlyConversationLimit: null, monthlyTokenLimit: 50_000, name: "Edited" });

    await expect(caller.agents.update({ id, allowedOrigins: ["https://example.com/path"] })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.agents.update({ id, monthlyTokenLimit: -1 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.agents.update({ id, monthlyTokenLimit: 1.5 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("refuses text the database cannot store (NUL, lone surrogates) as bad input naming the field, and stores nothing", async () => {
    const caller = callerFor(ctx, a.scope);
    const RULE = "must be valid Unicode text without NUL characters";
    const agentsBefore = await ctx.db.prisma.agent.count();
    await expect(caller.agents.create({ name: "a\u0000b" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: `name: ${RULE}` });
    await expect(caller.agents.update({ id: a.agentId, instructions: "lone \ud800" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: `instructions: ${RULE}`,
    });
    await expect(caller.agents.update({ id: a.agentId, allowedOrigins: ["https://x.example", "\udc00"] })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: `allowedOrigins.1: ${RULE}`,
    });
    // Ids are looked up in the database too: the same 400, not a 500.
    await expect(caller.agents.get({ id: "agent\u0000" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: `id: ${RULE}` });
    // A surrogate pair (an emoji) is a real character.
    const { id } = await caller.agents.create({ name: "Smile \u{1F600}" });
    expect((await caller.agents.get({ id })).name).toBe("Smile \u{1F600}");
    expect(await ctx.db.prisma.agent.count()).toBe(agentsBefore + 1);
    expect((await ctx.db.prisma.agent.findUniqueOrThrow({ where: { id: a.agentId } })).instructions).not.toContain("lone");
  });

  it("updates the widget's limits and quota share within their bounds; null means the default", async () => {
    const caller = callerFor(ctx, a.scope);
    const { id } = await caller.agents.create({ name: "Widget limits" });
    expect(await caller.agents.get({ id })).toMatchObject({
      widgetConnectionsPerIp: null,
      widgetMessagesPerConnectionPerMinute: null,
      widgetMessagesPerIpPerMinute: null,
      widgetConversationsPerIpPerHour: null,
      widgetMonthlyConversationLimit: null,
      widgetMonthlyTokenLimit: null,
    });
    const limits = {
      widgetConnectionsPerIp: 5,
      widgetMessagesPerConnectionPerMinute: 6,
      widgetMessagesPerIpPerMinute: 40,
      widgetConversationsPerIpPerHour: 12,
      widgetMonthlyConversationLimit: 500,
      widgetMonthlyTokenLimit: 0,
    };
    expect(await caller.agents.update({ id, ...limits })).toMatchObject(limits);
    expect(await ctx.db.prisma.agent.findUniqueOrThrow({ where: { id } })).toMatchObject(limits);
    expect(await caller.agents.update({ id, widgetConnectionsPerIp: null, widgetMonthlyTokenLimit: null })).toMatchObject({
      ...limits,
      widgetConnectionsPerIp: null,
      widgetMonthlyTokenLimit: null,
    });

    // Bounds of limits.ts, with the field and the rule in the error.
    for (const [field, value, rule] of [
      ["widgetConnectionsPerIp", 0, "from 1 to 1000, or leave empty for the default (20)"],
      ["widgetConnectionsPerIp", 1_001, "from 1 to 1000"],
      ["widgetMessagesPerConnectionPerMinute", 601, "from 1 to 600, or leave empty for the default (10)"],
      ["widgetMessagesPerIpPerMinute", 2.5, "from 1 to 10000, or leave empty for the default (30)"],
      ["widgetConversationsPerIpPerHour", 10_001, "from 1 to 10000, or leave empty for the default (20)"],
    ] as const) {
      const error = await caller.agents.update({ id, [field]: value }).catch((thrown: unknown) => thrown);
      expect(error, `${field}=${value}`).toMatchObject({ code: "BAD_REQUEST" });
      expect(JSON.stringify(error), `${field}=${value}`).toContain(rule);
      expect(JSON.stringify(error)).toContain(field);
    }
    await expect(caller.agents.update({ id, widgetMonthlyConversationLimit: -1 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.agents.update({ id, widgetMonthlyTokenLimit: 0.5 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await caller.agents.get({ id })).toMatchObject({ ...limits, widgetConnectionsPerIp: null, widgetMonthlyTokenLimit: null });
  });

  it("treats another workspace's agent as not found", async () => {
    const caller = callerFor(ctx, b.scope);
    await expect(caller.agents.get({ id: a.agentId })).rejects.toMatchObject({ code: "NOT_FOUND", message: "Agent not found" });
    await expect(caller.agents.update({ id: a.agentId, name: "Mine now" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Agent not found",
    });
    await expect(caller.agents.get({ id: "no-such-agent" })).rejects.toMatchObject({ code: "NOT_FOUND", message: "Agent not found" });
    expect((await callerFor(ctx, b.scope).agents.list()).map((agent) => agent.id)).toEqual([b.agentId]);
    expect((await ctx.db.prisma.agent.findUniqueOrThrow({ where: { id: a.agentId } })).name).toBe("alpha agent");
  });
});

describe("help centre and widget look", () => {
  it("saves the branding normalised, names the help centre after the workspace by default, and refuses bad values with nothing stored", async () => {
    const caller = callerFor(ctx, a.scope);
    const { id, helpCentreName, branding } = await caller.agents.create({ name: "Branded" });
    expect(helpCentreName).toBe("alpha Help Centre");
    expect(branding).toMatchObject({ helpName: "", accentColor: "#0b57d0", suggestions: [] });
    const saved = await caller.agents.update({
      id,
      branding: {
        helpName: " Alpha Answers ",
        accentColor: "#FFD500",
        logoUrl: "https://cdn.example.com/logo.png",
        footerLink: { label: "Back to alpha.com", url: "https://alpha.example.com" },
        suggestions: [{ text: "How do I pay?", articleId: a.articleId }],
      },
    });
    expect(saved).toMatchObject({
      helpCentreName: "Alpha Answers",
      branding: {
        helpName: "Alpha Answers",
        accentColor: "#ffd500",
        widgetTitle: "",
        suggestions: [{ text: "How do I pay?", articleId: a.articleId }],
      },
    });
    await expect(
      caller.agents.update({ id, branding: { logoUrl: "http://cdn.example.com/logo.png", suggestions: Array(6).fill({ text: "Hi" }) } }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: {
        issues: expect.arrayContaining([
          expect.objectContaining({
            path: ["branding", "logoUrl"],
            message: "Enter an address starting with https://, or upload an image",
          }),
          expect.objectContaining({ path: ["branding", "suggestions"], message: "Use at most 5 suggestions" }),
        ]),
      },
    });
    expect((await caller.agents.get({ id })).branding.logoUrl).toBe("https://cdn.example.com/logo.png");
  });
});

describe("keys", () => {
  it("generates a pk_ key, stores only its hash, and shows its state", async () => {
    const caller = callerFor(ctx, a.scope);
    await caller.agents.update({ id: a.agentId, httpApiEnabled: true });
    const issued = await caller.keys.generate({ agentId: a.agentId });
    expect(issued.key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    expect(issued.last4).toBe(issued.key.slice(-4));
    expect(issued.createdAt).toBe(NOW.toISOString());

    const row = await ctx.db.prisma.agent.findUniqueOrThrow({ where: { id: a.agentId } });
    expect(row.keyHash).toBe(hashAgentKey(issued.key));
    expect(JSON.stringify(row)).not.toContain(issued.key);
    expect(row.keyLast4).toBe(issued.last4);

    expect(await caller.agents.get({ id: a.agentId })).toMatchObject({ keyConfigured: true, keyLast4: issued.last4, keyCreatedAt: NOW });
    const agent = await authenticateAgent(ctx.db, ctx.limiters, {
      agentId: a.agentId,
      token: issued.key,
      clientIp: "203.0.113.1",
    });
    expect(agent.id).toBe(a.agentId);
  });

  it("rotates: the previous key fails on the very next request", async () => {
    const caller = callerFor(ctx, a.scope);
    const first = await caller.keys.generate({ agentId: a.agentId });
    const second = await caller.keys.generate({ agentId: a.agentId });
    expect(second.key).not.toBe(first.key);
    const row = await ctx.db.prisma.agent.findUniqueOrThrow({ where: { id: a.agentId } });
    expect(row.keyHash).toBe(hashAgentKey(second.key));
    expect(row.keyHash).not.toBe(hashAgentKey(first.key));
    await expect(
      authenticateAgent(ctx.db, ctx.limiters, { agentId: a.agentId, token: first.key, clientIp: "203.0.113.2" }),
    ).rejects.toMatchObject({ code: "INVALID_BEARER_TOKEN" });
    await expect(
      authenticateAgent(ctx.db, ctx.limiters, { agentId: a.agentId, token: second.key, clientIp: "203.0.113.2" }),
    ).resolves.toMatchObject({ id: a.agentId });
  });

  it("revokes: the key is cleared and messages get `HTTP API key not configured`", async () => {
    const caller = callerFor(ctx, a.scope);
    const issued = await caller.keys.generate({ agentId: a.agentId });
    expect(await caller.keys.revoke({ agentId: a.agentId })).toEqual({ revoked: true });
    expect(await ctx.db.prisma.agent.findUniqueOrThrow({ where: { id: a.agentId } })).toMatchObject({
      keyHash: null,
      keyLast4: null,
      keyCreatedAt: null,
    });
    expect(await caller.agents.get({ id: a.agentId })).toMatchObject({ keyConfigured: false, keyLast4: null, keyCreatedAt: null });
    await expect(
      authenticateAgent(ctx.db, ctx.limiters, { agentId: a.agentId, token: issued.key, clientIp: "203.0.113.3" }),
    ).rejects.toMatchObject({ code: "KEY_NOT_CONFIGURED" });
    // Revoking again is harmless.
    expect(await caller.keys.revoke({ agentId: a.agentId })).toEqual({ revoked: false });
  });

  it("never touches another workspace's agent", async () => {
    const mine = await callerFor(ctx, a.scope).keys.generate({ agentId: a.agentId });
    const intruder = callerFor(ctx, b.scope);
    await expect(intruder.keys.generate({ agentId: a.agentId })).rejects.toMatchObject({ code: "NOT_FOUND", message: "Agent not found" });
    await expect(intruder.keys.revoke({ agentId: a.agentId })).rejects.toMatchObject({ code: "NOT_FOUND", message: "Agent not found" });
    expect((await ctx.db.prisma.agent.findUniqueOrThrow({ where: { id: a.agentId } })).keyHash).toBe(hashAgentKey(mine.key));
  });
});

describe("agents.knowledgeSearch", () => {
  it("says an agent within the memory budget is searched in process, with its text size", async () => {
    const caller = callerFor(ctx, a.scope);
    const status = await caller.agents.knowledgeSearch({ id: a.agentId });
    expect(status.search).toBe("in-process");
    expect(status.budgetBytes).toBe(KNOWLEDGE_INDEX_MAX_TEXT_BYTES);
    expect(status.textBytes).toBeGreaterThanOrEqual(0);
  });

  it("refuses another workspace's agent as not found", async () => {
    await expect(callerFor(ctx, b.scope).agents.knowledgeSearch({ id: a.agentId })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Agent not found",
    });
  });
});
