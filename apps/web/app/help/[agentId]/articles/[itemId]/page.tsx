// One article: breadcrumbs, title, updated date, its other languages (hreflang links and "Also
// in"), the Markdown rendered and sanitised, and more articles from the same collection, and "Was
// this helpful?". Showing it counts a view (the panel shows the count; visitors never see it).
import { excerpt, helpPaths } from "@parley/core/help";
import { markdownToPlainText } from "@parley/core/knowledge";
import { renderArticleHtml } from "@parley/core/markdown";
import type { Metadata } from "next";
import { ArticleFeedback } from "~/help/ArticleFeedback.tsx";
import { ArticleList } from "~/help/ArticleList.tsx";
import { Breadcrumbs } from "~/help/Breadcrumbs.tsx";
import { appUrl, countArticleView, loadArticle, loadArticles, loadHelpAgent, loadTranslations } from "~/help/data.ts";
import { formatDate } from "~/help/format.ts";
import { HelpShell } from "~/help/HelpShell.tsx";
import { ArticleLanguages } from "~/help/Languages.tsx";
import { helpMetadata } from "~/help/metadata.ts";

export const dynamic = "force-dynamic";

/** Meta descriptions are cut by search engines at about this length. */
const DESCRIPTION_CHARS = 160;
const MORE_ARTICLES = 5;

type Props = { params: Promise<{ agentId: string; itemId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { agentId, itemId } = await params;
  const agent = await loadHelpAgent(agentId);
  const article = await loadArticle(agentId, itemId);
  const translations = await loadTranslations(agentId, article.id);
  return helpMetadata({
    appUrl: await appUrl(),
    path: helpPaths.article(agentId, article.slug),
    agentName: agent.name,
    title: article.title,
    description: excerpt(markdownToPlainText(article.content), "", DESCRIPTION_CHARS),
    type: "article",
    modifiedTime: article.updatedAt,
    languages:
      translations.length > 0
        ? Object.fromEntries(translations.map((translation) => [translation.language, helpPaths.article(agentId, translation.slug)]))
        : undefined,
  });
}

export default async function ArticlePage({ params }: Props) {
  const { agentId, itemId } = await params;
  const agent = await loadHelpAgent(agentId);
  const article = await loadArticle(agentId, itemId);
  await countArticleView(agentId, article.id);
  const translations = await loadTranslations(agentId, article.id);
  // Its translations are linked above ("Also in"), not again among the collection's other articles.
  const shown = new Set([article.slug, ...translations.map((translation) => translation.slug)]);
  const related = (await loadArticles(agentId, "", MORE_ARTICLES + shown.size, article.sourceId))
    .filter((other) => other.id !== article.id && !shown.has(other.slug))
    .slice(0, MORE_ARTICLES);
  return (
    <HelpShell brand={agent} headerSearch>
      <Breadcrumbs
        items={[
          { label: "Help centre", href: helpPaths.home(agentId) },
          { label: article.sourceName, href: helpPaths.collection(agentId, article.sourceId) },
          { label: article.title },
        ]}
      />
      <article className="help-article" aria-labelledby="article-title" lang={article.language}>
        <h1 id="article-title">{article.title}</h1>
        <p className="help-article-meta">
          Updated <time dateTime={article.updatedAt.toISOString()}>{formatDate(article.updatedAt)}</time>
        </p>
        <ArticleLanguages translations={translations} hrefOf={(slug) => helpPaths.article(agentId, slug)} />
        {/* Sanitised in renderArticleHtml (@parley/core/markdown: allow-listed tags, attributes and URL schemes). */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised HTML from the article's Markdown */}
        <div className="help-prose" dangerouslySetInnerHTML={{ __html: renderArticleHtml(article.content) }} />
        <ArticleFeedback agentId={agentId} articleId={article.id} />
      </article>
      {related.length > 0 ? (
        <aside aria-labelledby="related-title" className="help-related">
          <h2 id="related-title">More in {article.sourceName}</h2>
          <ArticleList agentId={agentId} articles={related} headingLevel={3} />
        </aside>
      ) : null}
    </HelpShell>
  );
}
