// What both engines share: the names of their built-in tools (stored in each turn's toolCalls,
// so a later turn can tell what an earlier one did) and the public link of a cited article.

export const SEARCH_TOOL = "search_knowledge_base";
export const HANDOFF_TOOL = "request_human";

/** The public help-centre page of an article. */
export function helpArticleUrl(appUrl: string, agentId: string, articleId: string): string {
  return `${appUrl.replace(/\/+$/, "")}/help/${encodeURIComponent(agentId)}/articles/${encodeURIComponent(articleId)}`;
}
