// Which turns are knowledge gaps (the engine's result read by the knowledge base's gap rule).
import type { KnowledgeGapKind } from "../knowledge/gaps/gap-rows.ts";
import { HANDOFF_TOOL, SEARCH_TOOL } from "./tools.ts";
import type { EngineResult } from "./types.ts";

/**
 * A turn is a gap when the agent searched the knowledge base and linked no article (the "I don't
 * know" reply). A request for a person is not a gap in the knowledge base ("talk to a person" is
 * not a question an article answers): a handoff turn is never one.
 */
export function turnGapKind(result: EngineResult): KnowledgeGapKind | null {
  if (result.handoffRequested || result.toolCalls.some((call) => call.name === HANDOFF_TOOL)) return null;
  const searched = result.toolCalls.some((call) => call.name === SEARCH_TOOL);
  const linked = result.richContent.some((item) => item.type === "articles" && item.articles.length > 0);
  return searched && !linked ? "unanswered" : null;
}
