// The agent page's operations that reach its conversations: deleting the agent with them, and the
// test chat (procedures of the `agents` router of packages/api).
import { z } from "zod";
import { deleteByIdInput } from "../knowledge/deletion.ts";
import { panelOperationsOver } from "../people/panel-operation.ts";
import { count, id } from "../platform/panel-outputs.ts";
import { deleteAgent } from "./agent-deletion.ts";
import type { ConversationContext } from "./context.ts";
import { runTestTurn, testChatInput } from "./test-chat.ts";

export const testChatOutput = z.object({
  conversationId: id,
  reply: z.string(),
  html: z.string(),
  articles: z.array(z.object({ id: z.string(), title: z.string(), url: z.string() })),
  handoffRequested: z.boolean(),
  status: z.enum(["active", "escalated"]),
});

export const deletedAgentOutput = z.object({ conversations: count });

const panel = panelOperationsOver<ConversationContext>();

export const agentConversationOperations = {
  /** Deletes the agent with its key, conversations and usage (owners only). */
  delete: panel.mutation({
    permission: "agents.delete",
    input: deleteByIdInput,
    output: deletedAgentOutput,
    run: ({ app, scope }, input) => deleteAgent(app.db, scope, input.id),
  }),
  /** One turn of the agent page's test chat (a test conversation). */
  testChat: panel.mutation({
    permission: "agents.test",
    input: testChatInput,
    output: testChatOutput,
    run: ({ app, scope }, input) => runTestTurn(app, scope.workspaceId, input),
  }),
};
