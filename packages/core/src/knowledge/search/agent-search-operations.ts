// The agent page's knowledge search status (a procedure of the `agents` router of packages/api).
import { z } from "zod";
import { agentIdInput } from "../../agents/agents.ts";
import { panelOperationsOver } from "../../people/panel-operation.ts";
import type { PlatformContext } from "../../platform/context.ts";
import { getAgentKnowledgeSearch } from "./agent-status.ts";

export const agentKnowledgeSearchOutput = z.object({
  search: z.enum(["in-process", "database"]),
  textBytes: z.number().int().nonnegative(),
  budgetBytes: z.number().int().positive(),
});

const panel = panelOperationsOver<PlatformContext>();

export const agentSearchOperations = {
  /** Whether the agent's knowledge is searched in process or, over the memory budget, in the database. */
  knowledgeSearch: panel.query({
    permission: "agents.read",
    input: agentIdInput,
    output: agentKnowledgeSearchOutput,
    run: ({ app, scope }, input) => getAgentKnowledgeSearch(app.db, scope.workspaceId, input.id),
  }),
};
