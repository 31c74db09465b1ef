// One collection: its visible articles, most recently updated first, a page at a time, with a
// language filter (`?lang=`) when they are in more than one language.

import { helpPaths } from "@parley/core/help";
import { HELP_ARTICLES_PER_LIST } from "@parley/core/help/limits";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ArticleList } from "~/help/ArticleList.tsx";
import { Breadcrumbs } from "~/help/Breadcrumbs.tsx";
import { appUrl, loadArticles, loadCollection, loadHelpAgent, loadLanguageFilter } from "~/help/data.ts";
import { articleCount } from "~/help/format.ts";
import { HelpShell } from "~/help/HelpShell.tsx";
import { LanguageFilter, listLanguageAlternates } from "~/help/Languages.tsx";
import { helpMetadata } from "~/help/metadata.ts";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ agentId: string; sourceId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** The requested page number: a positive integer within the collection, else the 404 page. */
function pageNumber(raw: string | string[] | undefined, pages: number): number {
  if (raw === undefined) return 1;
  const page = typeof raw === "string" && /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : 0;
  return page >= 1 && page <= pages ? page : notFound();
}

async function load(props: Props) {
  const { agentId, sourceId } = await props.params;
  const agent = await loadHelpAgent(agentId);
  const searchParams = await props.searchParams;
  // The collection exists (or the 404 page) before its languages are looked at.
  await loadCollection(agentId, sourceId);
  const filter = await loadLanguageFilter(agentId, searchParams.lang, sourceId);
  const language = filter.language ?? undefined;
  const collection = await loadCollection(agentId, sourceId, language);
  const pages = Math.max(1, Math.ceil(collection.count / HELP_ARTICLES_PER_LIST));
  const page = pageNumber(searchParams.page, pages);
  const pageIn = (lang?: string, number = 1) => helpPaths.collection(agentId, collection.id, number, lang);
  return { agentId, agent, collection, page, pages, filter, language, pageIn };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { agent, collection, page, filter, language, pageIn } = await load(props);
  return helpMetadata({
    appUrl: await appUrl(),
    path: pageIn(language, page),
    agentName: agent.name,
    title: page > 1 ? `${collection.name} (page ${page})` : collection.name,
    description: `${collection.name}: ${articleCount(collection.count)} in the ${agent.name} help centre.`,
    // A later page of one language is no translation of the same page of another.
    languages: page === 1 ? listLanguageAlternates(filter, pageIn) : undefined,
  });
}

export default async function CollectionPage(props: Props) {
  const { agentId, agent, collection, page, pages, filter, language, pageIn } = await load(props);
  const articles = await loadArticles(agentId, "", HELP_ARTICLES_PER_LIST, collection.id, (page - 1) * HELP_ARTICLES_PER_LIST, language);
  return (
    <HelpShell brand={agent} headerSearch>
      <Breadcrumbs items={[{ label: "Help centre", href: helpPaths.home(agentId) }, { label: collection.name }]} />
      <h1>{collection.name}</h1>
      <p className="help-lead">{articleCount(collection.count)}</p>
      <LanguageFilter filter={filter} hrefOf={pageIn} />
      <ArticleList agentId={agentId} articles={articles} />
      {pages > 1 ? (
        <nav aria-label="Pages" className="help-pagination">
          {page > 1 ? (
            <Link rel="prev" href={pageIn(language, page - 1)}>
              Newer articles
            </Link>
          ) : null}
          <span>
            Page {page} of {pages}
          </span>
          {page < pages ? (
            <Link rel="next" href={pageIn(language, page + 1)}>
              Older articles
            </Link>
          ) : null}
        </nav>
      ) : null}
    </HelpShell>
  );
}
