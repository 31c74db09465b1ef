// Deleting an agent, in one transaction: the database's cascades take its key, conversations
// (messages, tracking events, notes), usage and idempotent responses; what other tables quote of
// its conversations is scrubbed with the visitor-data erasure's own rule.
import type { Database } from "@parley/db";
import { recordAudit } from "../people/audit.ts";
import { PEOPLE_ERRORS } from "../people/errors.ts";
import type { AdminScope } from "../people/scope.ts";
import { AppError } from "../platform/errors.ts";
import { scrubStoredResponses } from "./visitor-data.ts";

/**
 * Deletes the agent with its key, conversations (messages, tracking events, notes), usage and
 * idempotent responses; stored webhook events about its conversations lose their data too.
 * Returns the conversations deleted.
 */
export async function deleteAgent(db: Database, scope: AdminScope, id: string): Promise<{ conversations: number }> {
  return db.prisma.$transaction(
    async (tx) => {
      const agent = await tx.agent.findFirst({ where: { id, workspaceId: scope.workspaceId }, select: { id: true, name: true } });
      if (!agent) throw new AppError(PEOPLE_ERRORS.AGENT_NOT_FOUND);
      const conversations = await tx.conversation.findMany({ where: { agentId: id }, select: { id: true } });
      await scrubStoredResponses(
        tx,
        conversations.map((row) => row.id),
      );
      await tx.agent.delete({ where: { id } });
      await recordAudit(tx, scope, {
        action: "agent.deleted",
        targetType: "agent",
        targetId: id,
        targetLabel: agent.name,
        detail: { conversations: conversations.length },
      });
      return { conversations: conversations.length };
    },
    { timeout: 120_000 },
  );
}
