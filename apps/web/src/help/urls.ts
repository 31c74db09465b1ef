// Paths of the help pages (one place, so links, canonical URLs and the sitemap agree).
const segment = (value: string) => encodeURIComponent(value);

export const helpPaths = {
  home: (agentId: string) => `/help/${segment(agentId)}`,
  collection: (agentId: string, sourceId: string, page = 1) =>
    `/help/${segment(agentId)}/collections/${segment(sourceId)}${page > 1 ? `?page=${page}` : ""}`,
  article: (agentId: string, articleId: string) => `/help/${segment(agentId)}/articles/${segment(articleId)}`,
  search: (agentId: string, q?: string) => `/help/${segment(agentId)}/search${q ? `?q=${encodeURIComponent(q)}` : ""}`,
  sitemap: (agentId: string) => `/help/${segment(agentId)}/sitemap.xml`,
};
