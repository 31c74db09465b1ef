// The addresses of the help pages, in one place, so the pages' links and canonical URLs, the
// sitemap, the panel's links and the engines' article links in answers all agree. Plain
// functions (no database): the panel's browser code imports them too (@parley/core/browser).
const segment = (value: string) => encodeURIComponent(value);

/** A query string of the parameters that are set (`lang`: the list's language filter). */
function queryString(params: { lang?: string; page?: number }): string {
  const parts: string[] = [];
  if (params.lang) parts.push(`lang=${encodeURIComponent(params.lang)}`);
  if (params.page !== undefined && params.page > 1) parts.push(`page=${params.page}`);
  return parts.length > 0 ? `?${parts.join("&")}` : "";
}

/** Paths of the help pages, relative to the app's public base URL. */
export const helpPaths = {
  /** `lang`: only the articles of that language (the language filter). */
  home: (agentId: string, lang?: string) => `/help/${segment(agentId)}${queryString({ lang })}`,
  collection: (agentId: string, sourceId: string, page = 1, lang?: string) =>
    `/help/${segment(agentId)}/collections/${segment(sourceId)}${queryString({ lang, page })}`,
  /** By slug; an article's id there answers 308 to this address. */
  article: (agentId: string, slug: string) => `/help/${segment(agentId)}/articles/${segment(slug)}`,
  search: (agentId: string, q?: string) => `/help/${segment(agentId)}/search${q ? `?q=${encodeURIComponent(q)}` : ""}`,
  sitemap: (agentId: string) => `/help/${segment(agentId)}/sitemap.xml`,
};

/** The absolute address of an article's help page (a trailing slash of `appUrl` is ignored). */
export function helpArticleUrl(appUrl: string, agentId: string, slug: string): string {
  return `${appUrl.replace(/\/+$/, "")}${helpPaths.article(agentId, slug)}`;
}
