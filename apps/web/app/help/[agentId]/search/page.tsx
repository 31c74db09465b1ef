// Search results, best match first (the knowledge agent's analysis: word forms, typos,
// synonyms, any word), with the matched words marked, a "Did you mean" link when a word was read
// as a typo's correction, and a note when no article holds every word. A search that found nothing
// offers the chat (when the help pages have it) and the most read articles. A GET form and a
// shareable URL (?q=); works without JavaScript (but for the chat).
import { helpPaths } from "@parley/core/help";
import { HELP_ARTICLES_PER_LIST } from "@parley/core/help/limits";
import { HELP_QUERY_MAX_CHARS } from "@parley/core/knowledge/limits";
import type { Metadata } from "next";
import Link from "next/link";
import { ArticleList } from "~/help/ArticleList.tsx";
import { AskInChat } from "~/help/AskInChat.tsx";
import { Breadcrumbs } from "~/help/Breadcrumbs.tsx";
import { appUrl, loadHelpAgent, loadPopularArticles, loadSearchPage, recordSearchGap } from "~/help/data.ts";
import { HelpShell } from "~/help/HelpShell.tsx";
import { helpChatOffered } from "~/help/HelpWidget.tsx";
import { helpMetadata } from "~/help/metadata.ts";
import { SearchForm } from "~/help/SearchForm.tsx";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ agentId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The raw `q` of the address (the first, when repeated). */
async function rawQuery(props: Props): Promise<string> {
  const raw = (await props.searchParams).q;
  return Array.isArray(raw) ? (raw[0] ?? "") : (raw ?? "");
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { agentId } = await props.params;
  const agent = await loadHelpAgent(agentId);
  const { query: q, tooLong } = await loadSearchPage(agentId, await rawQuery(props));
  return helpMetadata({
    appUrl: await appUrl(),
    path: helpPaths.search(agentId, tooLong ? undefined : q),
    agentName: agent.name,
    title: q && !tooLong ? `Search results for “${q}”` : "Search",
    description: `Search ${agent.name}.`,
    // Result pages are for visitors, not for search engines.
    noIndex: true,
  });
}

export default async function SearchPage(props: Props) {
  const { agentId } = await props.params;
  const agent = await loadHelpAgent(agentId);
  const { query: q, tooLong, articles: results, suggestion, closestOnly } = await loadSearchPage(agentId, await rawQuery(props));
  const foundNothing = Boolean(q) && !tooLong && results.length === 0;
  if (foundNothing) await recordSearchGap(agentId, q);
  const [popular, chatOffered] = foundNothing ? await Promise.all([loadPopularArticles(agentId), helpChatOffered(agentId)]) : [[], false];
  return (
    <HelpShell brand={agent}>
      <Breadcrumbs items={[{ label: "Help centre", href: helpPaths.home(agentId) }, { label: "Search" }]} />
      <h1>{q && !tooLong ? <>Search results for “{q}”</> : "Search"}</h1>
      <SearchForm agentId={agentId} id="search-page-q" query={q} />
      {tooLong ? (
        <p className="help-error" role="alert">
          Search terms can be at most {HELP_QUERY_MAX_CHARS} characters. Please shorten your search.
        </p>
      ) : !q ? (
        <p>Type a word or a few words to find articles.</p>
      ) : (
        <>
          {suggestion ? (
            <p className="help-suggestion">
              Did you mean{" "}
              <Link href={suggestion.href} className="help-suggestion-link">
                {suggestion.query}
              </Link>
              ?
            </p>
          ) : null}
          <p className="help-lead" role="status">
            {results.length === 0
              ? "No articles match your search. Try other or fewer words."
              : closestOnly
                ? "No article contains every word; showing the closest matches."
                : results.length === 1
                  ? "1 article found."
                  : `${results.length === HELP_ARTICLES_PER_LIST ? `The ${results.length} best` : results.length} articles found.`}
          </p>
          {results.length > 0 ? <ArticleList agentId={agentId} articles={results} query={suggestion?.query ?? q} showCollection /> : null}
          {chatOffered ? <AskInChat /> : null}
          {popular.length > 0 ? (
            <section aria-labelledby="help-popular">
              <h2 id="help-popular">Popular articles</h2>
              <ArticleList agentId={agentId} articles={popular} showCollection headingLevel={3} />
            </section>
          ) : null}
        </>
      )}
    </HelpShell>
  );
}
