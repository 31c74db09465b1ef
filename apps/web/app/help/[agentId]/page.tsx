// Help centre home: search, collections with their article counts, recently updated articles.

import { helpPaths } from "@parley/core/help";
import type { Metadata } from "next";
import Link from "next/link";
import { ArticleList } from "~/help/ArticleList.tsx";
import { appUrl, loadArticles, loadCollections, loadHelpAgent } from "~/help/data.ts";
import { articleCount } from "~/help/format.ts";
import { HelpShell } from "~/help/HelpShell.tsx";
import { helpMetadata } from "~/help/metadata.ts";
import { SearchForm } from "~/help/SearchForm.tsx";

export const dynamic = "force-dynamic";

/** How many recently updated articles the home page shows. */
const RECENT_ARTICLES = 6;

type Props = { params: Promise<{ agentId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { agentId } = await params;
  const agent = await loadHelpAgent(agentId);
  const collections = await loadCollections(agentId);
  const total = collections.reduce((sum, collection) => sum + collection.count, 0);
  return helpMetadata({
    appUrl: await appUrl(),
    path: helpPaths.home(agentId),
    agentName: agent.name,
    description: `Answers and guides from ${agent.name}: ${articleCount(total)} in ${collections.length} ${collections.length === 1 ? "collection" : "collections"}.`,
  });
}

export default async function HelpHomePage({ params }: Props) {
  const { agentId } = await params;
  const agent = await loadHelpAgent(agentId);
  const [collections, recent] = await Promise.all([loadCollections(agentId), loadArticles(agentId, "", RECENT_ARTICLES)]);
  return (
    <HelpShell brand={agent}>
      <section className="help-hero" aria-labelledby="help-title">
        <h1 id="help-title">How can we help?</h1>
        <SearchForm agentId={agentId} id="home-search" />
      </section>

      <section aria-labelledby="collections-title">
        <h2 id="collections-title">Collections</h2>
        {collections.length === 0 ? (
          <p>No articles have been published yet.</p>
        ) : (
          <ul className="help-collections">
            {collections.map((collection) => (
              <li key={collection.id}>
                <Link href={helpPaths.collection(agentId, collection.id)}>
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
