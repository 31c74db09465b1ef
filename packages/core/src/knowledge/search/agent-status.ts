// The agent page's knowledge-search status: whether the agent's articles are searched in process
// or from the database (over the instance's index budget).
import type { Database } from "@parley/db";
import { PEOPLE_ERRORS } from "../../people/errors.ts";
import { AppError } from "../../platform/errors.ts";
import { type KnowledgeIndexStatus, knowledgeIndexStatus } from "./agent-index.ts";

/**
 * How the agent's knowledge is searched: in process, or from the database when its articles'
 * text is over the instance's index budget (the agent page warns of it).
 */
export async function getAgentKnowledgeSearch(db: Database, workspaceId: string, id: string): Promise<KnowledgeIndexStatus> {
  const row = await db.prisma.agent.findFirst({ where: { id, workspaceId }, select: { id: true } });
  if (!row) throw new AppError(PEOPLE_ERRORS.AGENT_NOT_FOUND);
  return knowledgeIndexStatus(db, row.id);
}
