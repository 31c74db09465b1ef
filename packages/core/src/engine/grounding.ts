// The passages the LLM engine answers from: the knowledge agent's own search (knowledge.ts, so the
// help centre's visibility rule, the passage index, the confidence threshold), each article cut to
// the passage the knowledge agent would quote. This is the LLM engine's one call into retrieval:
// when retrieval improves, only this function follows it.
import { helpArticleUrl } from "../help/urls.ts";
import { RELATED_MIN_COVERAGE } from "./confidence.ts";
import { quoteOf, searchKnowledge } from "./knowledge.ts";
import type { EngineDeps } from "./types.ts";

/**
 * The model reads its sources and says when they do not answer, so it gets weaker matches than
 * the knowledge agent would link beside an answer (half that coverage, as for a second article).
 */
const GROUNDING_MIN_COVERAGE = RELATED_MIN_COVERAGE / 2;

export interface GroundingPassage {
  articleId: string;
  title: string;
  /** The article's public help page. */
  url: string;
  /** The part of the article that answers the question (whole sentences). */
  text: string;
}

/**
 * At most `limit` passages for `question` (read with the visitor's `previous` messages) from the
 * agent's visible articles, best first, down to GROUNDING_MIN_COVERAGE.
 */
export async function retrievePassages(
  deps: EngineDeps,
  agentId: string,
  question: string,
  limit: number,
  previous: readonly string[] = [],
): Promise<GroundingPassage[]> {
  const { index, ranking } = await searchKnowledge(deps, agentId, question, previous);
  const passages: GroundingPassage[] = [];
  for (const match of ranking.articles) {
    if (passages.length >= limit || match.coverage < GROUNDING_MIN_COVERAGE) break;
    const article = index.articles.get(match.articleId);
    if (!article) continue;
    passages.push({
      articleId: article.id,
      title: article.title,
      url: helpArticleUrl(deps.appUrl, agentId, article.slug),
      text: quoteOf(article, match, question, ranking.language) || article.title,
    });
  }
  return passages;
}
