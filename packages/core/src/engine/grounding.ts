// The passages the LLM engine answers from: the knowledge agent's own retrieval (knowledge.ts, so
// the help centre's visibility rule), each article cut to the passage that best answers the
// question. This is the LLM engine's one call into retrieval: when retrieval improves, only this
// function follows it.
import { helpArticleUrl } from "../help/urls.ts";
import { retrieve } from "./knowledge.ts";
import { bestPassage } from "./passage.ts";
import { keywords } from "./text.ts";
import type { EngineDeps } from "./types.ts";

export interface GroundingPassage {
  articleId: string;
  title: string;
  /** The article's public help page. */
  url: string;
  /** The part of the article that answers the question (whole sentences). */
  text: string;
}

/** At most `limit` passages for `question` from the agent's visible articles, best first. */
export async function retrievePassages(deps: EngineDeps, agentId: string, question: string, limit: number): Promise<GroundingPassage[]> {
  const words = keywords(question);
  if (words.length === 0) return [];
  const hits = await retrieve(deps, agentId, words);
  return hits.slice(0, limit).map((hit) => ({
    articleId: hit.id,
    title: hit.title,
    url: helpArticleUrl(deps.appUrl, agentId, hit.id),
    text: bestPassage(hit.content, question) || hit.title,
  }));
}
