// Reference rows: the same questions through two libraries a developer could add in ten minutes
// instead of Parley's engine, so every figure of the knowledge agent has its peer beside it.
// Both index each article's title and plain text with English stemming and the title boosted;
// a peer cites its best-scoring articles and says "I don't know" when the best score is under a
// threshold (calibrate.ts chooses it on the dev split, matched to the knowledge agent).
import type { Article } from "@parley/testing/eval-corpus";
import lunr from "lunr";
import MiniSearch from "minisearch";

export const PEERS = ["lunr", "minisearch"] as const;
export type PeerName = (typeof PEERS)[number];

/** How much more a title word weighs than a body word, in both peers. */
const TITLE_BOOST = 3;

export interface PeerHit {
  id: string;
  score: number;
}

export type PeerSearch = (text: string) => PeerHit[];

export interface IndexedText {
  id: string;
  title: string;
  /** The article's content as plain text. */
  text: string;
}

export function peerSearch(name: PeerName, articles: IndexedText[]): PeerSearch {
  return name === "lunr" ? lunrSearch(articles) : miniSearch(articles);
}

/** Lunr 2: BM25, its English stemmer and stop words; every query word optional (OR). */
function lunrSearch(articles: IndexedText[]): PeerSearch {
  const index = lunr(function () {
    this.ref("id");
    this.field("title", { boost: TITLE_BOOST });
    this.field("text");
    for (const article of articles) this.add(article);
  });
  // Built clause by clause, not parsed: a visitor's "+", "-", ":" or "~" is not query syntax.
  return (text) =>
    index
      .query((query) => {
        for (const token of lunr.tokenizer(text)) query.term(token.toString(), {});
      })
      .map((result) => ({ id: result.ref, score: result.score }));
}

/** MiniSearch 7: BM25+, with Lunr's stemmer and stop words, small typos and prefixes allowed. */
function miniSearch(articles: IndexedText[]): PeerSearch {
  const stem = lunr.stemmer as unknown as (token: lunr.Token) => lunr.Token;
  const stopWords = lunr.stopWordFilter as unknown as (token: lunr.Token) => lunr.Token | undefined;
  const processTerm = (term: string): string | null => {
    const token = new lunr.Token(term.toLowerCase(), {});
    return stopWords(token) ? stem(token).toString() : null;
  };
  const index = new MiniSearch<IndexedText>({
    fields: ["title", "text"],
    processTerm,
    searchOptions: { boost: { title: TITLE_BOOST }, fuzzy: 0.2, prefix: true, combineWith: "OR" },
  });
  index.addAll(articles);
  return (text) => index.search(text).map((result) => ({ id: String(result.id), score: result.score }));
}

export function indexedTexts(articles: Article[], plainText: (markdown: string) => string): IndexedText[] {
  return articles.map((article) => ({ id: article.id, title: article.title, text: plainText(article.content) }));
}
