// The widget's capped share of the monthly quotas, in core: the widget's own conversations and
// tokens are counted beside the agent's totals in the same row and reserved in the same atomic
// UPDATE, so concurrent widget turns cannot overrun the share, and HTTP API turns never count
// against it. Real database, either mode (the races are real on PostgreSQL).

import type { TestContext } from "@parley/testing/context";
import { createAgentWithKey, createMessagingContext } from "@parley/testing/messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateAgent, type MessagingAgent } from "../src/agents/keys/message-auth.ts";
import { runTurn } from "../src/conversations/turn/turn.ts";
import { AppError } from "../src/platform/errors.ts";
import { usageMonth } from "../src/usage/quotas.ts";

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createMessagingContext();
});

afterAll(async () => {
  await ctx.close();
});

/** An agent with a key and these widget caps, as a turn reads it. */
async function agentWith(fields: {
  monthlyConversationLimit?: number;
  monthlyTokenLimit?: number;
  widgetMonthlyConversationLimit?: number;
  widgetMonthlyTokenLimit?: number;
}): Promise<MessagingAgent> {
  const { monthlyConversationLimit, monthlyTokenLimit, ...widget } = fields;
  const created = await createAgentWithKey(ctx, { monthlyConversationLimit, monthlyTokenLimit });
  await ctx.db.prisma.agent.update({ where: { id: created.id }, data: widget });
  return authenticateAgent(ctx.db, ctx.limiters, { agentId: created.id, token: created.key, clientIp: "203.0.113.1" });
}

/** "200" or the AppError's code of one turn on this channel. */
async function turn(agent: MessagingAgent, channel: "api" | "widget", message = "How do refunds work?", conversationId?: string) {
  try {
    const response = await runTurn(ctx, agent, { message, ...(conversationId ? { conversationId } : {}) }, { channel });
    return { outcome: "200", conversationId: response.conversationId, tokens: response.tokenUsage };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { outcome: error.code };
  }
}

const usageOf = (agentId: string) => ctx.db.prisma.usageMonth.findFirstOrThrow({ where: { agentId } });

describe("the widget's share of the monthly quotas", () => {
  it("lets exactly 2 of 15 concurrent new widget conversations through when the share has 2 left", async () => {
    const agent = await agentWith({ monthlyConversationLimit: 100, widgetMonthlyConversationLimit: 5 });
    await ctx.db.prisma.usageMonth.create({
      data: { agentId: agent.id, month: usageMonth(new Date()), conversations: 40, turns: 40, widgetConversations: 3 },
    });
    const outcomes = await Promise.all(Array.from({ length: 15 }, (_, i) => turn(agent, "widget", `hello number ${i}`)));
    expect(outcomes.filter((o) => o.outcome === "200")).toHaveLength(2);
    expect(outcomes.filter((o) => o.outcome === "CONVERSATION_QUOTA_EXHAUSTED")).toHaveLength(13);
    expect(await usageOf(agent.id)).toMatchObject({ conversations: 42, turns: 42, widgetConversations: 5 });
    expect(await ctx.db.prisma.conversation.count({ where: { agentId: agent.id } })).toBe(2);
  });

  it("never counts HTTP API turns against the widget's share, and the agent's quota binds both", async () => {
    const agent = await agentWith({ monthlyConversationLimit: 3, widgetMonthlyConversationLimit: 1 });
    expect((await turn(agent, "api")).outcome).toBe("200");
    expect((await turn(agent, "api")).outcome).toBe("200");
    const widget = await turn(agent, "widget");
    expect(widget.outcome).toBe("200");
    expect((await turn(agent, "widget")).outcome).toBe("CONVERSATION_QUOTA_EXHAUSTED");
    // Continuing the widget's conversation is not a new one.
    expect((await turn(agent, "widget", "And invoices?", widget.conversationId)).outcome).toBe("200");
    // The agent's 3 are used: the API is refused too.
    expect((await turn(agent, "api")).outcome).toBe("CONVERSATION_QUOTA_EXHAUSTED");
    expect(await usageOf(agent.id)).toMatchObject({ conversations: 3, turns: 4, widgetConversations: 1 });
  });

  it("caps the widget's tokens: once its share is used every widget turn is refused, API turns go on", async () => {
    const agent = await agentWith({ widgetMonthlyTokenLimit: 1 });
    const first = await turn(agent, "widget");
    expect(first.outcome).toBe("200");
    expect((await turn(agent, "widget", "more?", first.conversationId)).outcome).toBe("TOKEN_QUOTA_EXHAUSTED");
    expect((await turn(agent, "widget")).outcome).toBe("TOKEN_QUOTA_EXHAUSTED");
    const api = await turn(agent, "api");
    expect(api.outcome).toBe("200");
    const usage = await usageOf(agent.id);
    expect(usage.widgetTokens).toBe(first.tokens);
    expect(usage.tokens).toBe((first.tokens ?? 0) + (api.tokens ?? 0));
  });
});
