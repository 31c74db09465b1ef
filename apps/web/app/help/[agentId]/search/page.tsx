// Search results, most relevant first, with the matched words marked. A GET form and a
// shareable URL (?q=); works without JavaScript.
import { helpPaths, parseArticleListQuery } from "@parley/core/help";
import { HELP_ARTICLES_PER_LIST } from "@parley/core/help/limits";
import { HELP_QUERY_MAX_CHARS } from "@parley/core/knowledge/limits";
import type { Metadata } from "next";
import { ArticleList } from "~/help/ArticleList.tsx";
import { Breadcrumbs } from "~/help/Breadcrumbs.tsx";
import { appUrl, loadArticles, loadHelpAgent, recordSearchGap } from "~/help/data.ts";
import { HelpShell } from "~/help/HelpShell.tsx";
import { helpMetadata } from "~/help/metadata.ts";
import { SearchForm } from "~/help/SearchForm.tsx";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ agentId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The query (trimmed), or `tooLong` when it breaks the same rule as the JSON route. */
async function readQuery(props: Props): Promise<{ q: string; tooLong: boolean }> {
  const raw = (await props.searchParams).q;
  const value = Array.isArray(raw) ? (raw[0] ?? "") : (raw ?? "");
  try {
    return { q: parseArticleListQuery(new URLSearchParams({ q: value })).q, tooLong: false };
  } catch {
    return { q: value.trim(), tooLong: true };
  }
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { agentId } = await props.params;
  const agent = await loadHelpAgent(agentId);
  const { q, tooLong } = await readQuery(props);
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
  const { q, tooLong } = await readQuery(props);
  const results = q && !tooLong ? await loadArticles(agentId, q, HELP_ARTICLES_PER_LIST) : [];
  if (q && !tooLong && results.length === 0) await recordSearchGap(agentId, q);
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
          <p className="help-lead" role="status">
            {results.length === 0
              ? "No articles match your search. Try other or fewer words."
              : results.length === 1
                ? "1 article found."
                : `${results.length === HELP_ARTICLES_PER_LIST ? `The ${results.length} best` : results.length} articles found.`}
          </p>
          <ArticleList agentId={agentId} articles={results} query={q} showCollection />
        </>
      )}
    </HelpShell>
  );
}
