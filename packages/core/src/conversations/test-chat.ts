// "Try it" on the agent's page: a team member's turns against the agent, through the same turn as
// the API and the widget (runTurn), marked as a test conversation - no quota is checked or used, no
// webhook is sent, and the inbox leaves it out unless asked. Test turns still cost the engine's
// tokens, so they share the messages API's per-agent rate (under their own key).
import type { Database } from "@parley/db";
import { z } from "zod";
import { type MessagingAgent, messagingAgentSelect } from "../agents/keys/message-auth.ts";
import { PEOPLE_ERRORS } from "../people/errors.ts";
import { rowId } from "../people/scope.ts";
import { AppError } from "../platform/errors.ts";
import { renderMessageHtml } from "../platform/markdown.ts";
import { enforceRateLimit } from "../platform/ratelimit/index.ts";
import type { ConversationContext } from "./context.ts";
import { messageRequestSchema } from "./turn/message-schema.ts";
import { runTurn } from "./turn/turn.ts";

export const testChatInput = z.object({
  agentId: rowId,
  message: messageRequestSchema.shape.message,
  /** The test conversation of an earlier turn; absent: a new one. */
  conversationId: rowId.optional(),
});

export interface TestChatReply {
  conversationId: string;
  reply: string;
  /** The reply as the widget shows it (sanitised HTML). */
  html: string;
  /** The help articles the answer used. */
  articles: Array<{ id: string; title: string; url: string }>;
  handoffRequested: boolean;
  status: "active" | "escalated";
}

async function workspaceAgent(db: Database, workspaceId: string, agentId: string): Promise<MessagingAgent> {
  const agent = await db.prisma.agent.findFirst({ where: { id: agentId, workspaceId }, select: messagingAgentSelect });
  if (!agent) throw new AppError(PEOPLE_ERRORS.AGENT_NOT_FOUND);
  return agent;
}

export async function runTestTurn(
  ctx: ConversationContext,
  workspaceId: string,
  input: z.infer<typeof testChatInput>,
): Promise<TestChatReply> {
  const agent = await workspaceAgent(ctx.db, workspaceId, input.agentId);
  await enforceRateLimit(ctx.limiters.messages, `test-chat:${agent.id}`);
  const response = await runTurn(
    ctx,
    agent,
    { message: input.message, conversationId: input.conversationId },
    { channel: "api", test: true },
  );
  return {
    conversationId: response.conversationId,
    reply: response.reply,
    html: renderMessageHtml(response.reply),
    articles: response.richContent.flatMap((item) => (item.type === "articles" ? item.articles : [])),
    handoffRequested: response.handoffRequested,
    status: response.status,
  };
}
