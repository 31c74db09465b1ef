// Help centre home: search, collections with their article counts, recently updated articles,
// and a language filter (`?lang=`) when the articles are in more than one language.

import { helpPaths } from "@parley/core/help";
import type { Metadata } from "next";
import Link from "next/link";
import { ArticleList } from "~/help/ArticleList.tsx";
import { appUrl, loadArticles, loadCollections, loadHelpAgent, loadLanguageFilter } from "~/help/data.ts";
import { articleCount } from "~/help/format.ts";
import { HelpShell } from "~/help/HelpShell.tsx";
import { LanguageFilter, listLanguageAlternates } from "~/help/Languages.tsx";
import { helpMetadata } from "~/help/metadata.ts";
import { SearchForm } from "~/help/SearchForm.tsx";

export const dynamic = "force-dynamic";

/** How many recently updated articles the home page shows. */
const RECENT_ARTICLES = 6;

type Props = {
  params: Promise<{ agentId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

async function load(props: Props) {
  const { agentId } = await props.params;
  const agent = await loadHelpAgent(agentId);
  const filter = await loadLanguageFilter(agentId, (await props.searchParams).lang);
  const language = filter.language ?? undefined;
  const collections = await loadCollections(agentId, language);
  const homeIn = (lang?: string) => helpPaths.home(agentId, lang);
  return { agentId, agent, filter, language, collections, homeIn };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { agentId, agent, filter, language, collections, homeIn } = await load(props);
  const total = collections.reduce((sum, collection) => sum + collection.count, 0);
  return helpMetadata({
    appUrl: await appUrl(),
    path: helpPaths.home(agentId, language),
    agentName: agent.name,
    description: `Answers and guides from ${agent.name}: ${articleCount(total)} in ${collections.length} ${collections.length === 1 ? "collection" : "collections"}.`,
    languages: listLanguageAlternates(filter, homeIn),
  });
}

export default async function HelpHomePage(props: Props) {
  const { agentId, agent, filter, language, collections, homeIn } = await load(props);
  const recent = await loadArticles(agentId, "", RECENT_ARTICLES, undefined, undefined, language);
  return (
    <HelpShell brand={agent}>
      <section className="help-hero" aria-labelledby="help-title">
        <h1 id="help-title">How can we help?</h1>
        <SearchForm agentId={agentId} id="home-search" />
      </section>

      <LanguageFilter filter={filter} hrefOf={homeIn} />

      <section aria-labelledby="collections-title">
        <h2 id="collections-title">Collections</h2>
        {collections.length === 0 ? (
          <p>No articles have been published yet.</p>
        ) : (
          <ul className="help-collections">
            {collections.map((collection) => (
              <li key={collection.id}>
                <Link href={helpPaths.collection(agentId, collection.id, 1, language)}>
                  <span className="help-collection-name">{collection.name}</span>
                  <span className="help-collection-count">{articleCount(collection.count)}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      {recent.length > 0 ? (
        <section aria-labelledby="recent-title">
          <h2 id="recent-title">Recently updated</h2>
          <ArticleList agentId={agentId} articles={recent} showCollection headingLevel={3} />
        </section>
      ) : null}
    </HelpShell>
  );
}
