// The agent page's test chat: real turns through the same runTurn, but as test conversations -
// never counted in usage or quotas, sending no webhooks, left out of the inbox unless asked for,
// and never continuing a real conversation (nor the API a test one). Real database.

import type { TestContext } from "@parley/testing/context";
import { createAgentWithKey, createMessagingContext } from "@parley/testing/messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateAgent } from "../src/agents/keys/message-auth.ts";
import { listConversations } from "../src/conversations/inbox/conversations.ts";
import { runTestTurn } from "../src/conversations/test-chat.ts";
import { runTurn } from "../src/conversations/turn/turn.ts";
import type { AdminScope } from "../src/people/scope.ts";

let ctx: TestContext;
let scope: AdminScope;

beforeAll(async () => {
  ctx = await createMessagingContext();
  const admin = await ctx.db.prisma.user.findFirstOrThrow({ where: { workspaceId: "ws-demo" } });
  scope = { userId: admin.id, workspaceId: "ws-demo", role: "owner" };
});

afterAll(async () => {
  await ctx.close();
});

describe("test chat", () => {
  it("answers with the articles it used, and counts nothing, even with the quota used up", async () => {
    const agent = await createAgentWithKey(ctx, { monthlyConversationLimit: 0, usageLimit: 0 });
    const first = await runTestTurn(ctx, "ws-demo", { agentId: agent.id, message: "How do I reset my password?" });
    expect(first.articles).toEqual(expect.arrayContaining([expect.objectContaining({ id: "art-reset-password" })]));
    expect(first.html).toContain("<p>");
    // The article's steps are a numbered list in the test chat, as in the widget.
    expect(first.html).toContain(
      "<ol>\n<li>Go to the sign-in page at app.acmecloud.example/login.</li>\n<li>Choose Forgot password? under",
    );
    const second = await runTestTurn(ctx, "ws-demo", { agentId: agent.id, message: "And billing?", conversationId: first.conversationId });
    expect(second.conversationId).toBe(first.conversationId);

    expect(await ctx.db.prisma.conversation.findUniqueOrThrow({ where: { id: first.conversationId } })).toMatchObject({
      test: true,
      messageCount: 4,
    });
    expect(await ctx.db.prisma.usageMonth.count({ where: { agentId: agent.id } })).toBe(0);
    expect(await ctx.db.prisma.webhookEvent.count()).toBe(0);
  });

  it("is left out of the inbox list unless test conversations are asked for", async () => {
    const agent = await createAgentWithKey(ctx);
    const reply = await runTestTurn(ctx, "ws-demo", { agentId: agent.id, message: "How do I reset my password?" });
    const real = await listConversations(ctx, scope, { agentId: agent.id, limit: 25 });
    expect(real.items.map((item) => item.id)).not.toContain(reply.conversationId);
    const tests = await listConversations(ctx, scope, { agentId: agent.id, test: true, limit: 25 });
    expect(tests.items.map((item) => item.id)).toEqual([reply.conversationId]);
    const searched = await listConversations(ctx, scope, { agentId: agent.id, q: "password", limit: 25 });
    expect(searched.items).toEqual([]);
  });

  it("keeps test and real conversations apart, and only the workspace's agents", async () => {
    const agent = await createAgentWithKey(ctx);
    const messaging = await authenticateAgent(ctx.db, ctx.limiters, { agentId: agent.id, token: agent.key, clientIp: "203.0.113.9" });
    const real = await runTurn(ctx, messaging, { message: "Hello" }, { channel: "api" });
    await expect(
      runTestTurn(ctx, "ws-demo", { agentId: agent.id, message: "Hi", conversationId: real.conversationId }),
    ).rejects.toMatchObject({
      code: "CONVERSATION_NOT_FOUND",
    });
    const test = await runTestTurn(ctx, "ws-demo", { agentId: agent.id, message: "Hi" });
    await expect(runTurn(ctx, messaging, { message: "Hi", conversationId: test.conversationId }, { channel: "api" })).rejects.toMatchObject(
      {
        code: "CONVERSATION_NOT_FOUND",
      },
    );
    await expect(runTestTurn(ctx, "other-workspace", { agentId: agent.id, message: "Hi" })).rejects.toMatchObject({
      code: "AGENT_NOT_FOUND",
    });
  });
});
