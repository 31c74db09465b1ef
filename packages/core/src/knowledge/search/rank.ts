// Ranking a question against an agent's passage index: the lexical ranking of passages (BM25F
// over the question's terms, the previous visitor message counting less), ordered by how relevant
// each passage's article is (relevance below), fused with any other ranking of passages (the
// embeddings' nearest neighbours) in one place, then grouped into articles. Each article carries
// what the "I don't know" decision reads (confidence.ts): how much of the question it holds,
// in its title, in one passage and in all, and its relevance.

import { detectLanguage, type Language } from "../languages/detection.ts";
import { isStopWord, wordsOf } from "./analyze.ts";
import { reciprocalRankFusion } from "./fusion.ts";
import type { PassageIndex, QueryTerm } from "./passage-index.ts";
import { type AnalyzedQuery, analyzeQuery, type SubjectWord } from "./query.ts";
import type { SynonymGroup } from "./synonyms.ts";

/** A passage in a ranking: (article, index of the section in sectionsOf(content)). */
export interface RankedPassage {
  articleId: string;
  section: number;
  score: number;
}

export interface ArticleMatch {
  articleId: string;
  /** Share (0..1) of the question's subject words, weighted by idf, found in the article. */
  coverage: number;
  /**
   * How much of the question the article holds in absolute terms: the summed weights (idf) of the
   * subject words found, the earlier message's counting less. A long message that rambles has a
   * low coverage but still names several of its answer's specific words.
   */
  evidence: number;
  /** Bit set of the subject words found (see Ranking.words). */
  matched: number;
  /** Share (0..1) of the question's subject words, by weight, found in the article's title. */
  titleShare: number;
  /** Share (0..1) of the message's own subject words, by weight, found in the article's best passage. */
  passageShare: number;
  /** How relevant the article is (relevance below); the articles come in this order when nothing is fused. */
  relevance: number;
  /**
   * How strongly its passages match, as scored rather than as a share of the best article's: its
   * best passage's BM25F score plus half its second's and a quarter of its third's, over the idf
   * of a word only one passage holds, so that help centres of every size read alike.
   */
  strength: number;
  /** The article's passages in ranked order (best first). */
  sections: number[];
}

export interface Ranking {
  language: Language;
  articles: ArticleMatch[];
  /** The question's subject words (bits) and how much each counts. */
  words: SubjectWord[];
  /** How many of `words`, first, are the message's own (the rest are its earlier message's). */
  ownWords: number;
}

/** How much the previous visitor message's words count in a follow-up ("and for monthly plans?"). */
const PREVIOUS_MESSAGE_WEIGHT = 0.4;
/** Passages of the visitor's language rank above the same passage's translation. */
const SAME_LANGUAGE_BOOST = 1.25;
/** How much an article's second and third passages add to its best one. */
const SUPPORT = [0.5, 0.25] as const;
/**
 * An article's relevance: its passage strength and its whole-article score (each as a share of the
 * best of the question), raised by the share of the question its title names and its best passage
 * holds. Chosen on the dev questions of every eval corpus together.
 */
const ARTICLE_SCORE_SHARE = 0.5;
const TITLE_BONUS = 1;
const PASSAGE_BONUS = 0.5;
/**
 * A search list is read by its titles: an article whose title the query names whole ("File
 * conflicts" for "conflict files") rises above one whose longer title names the same words among
 * others, by up to this share. Chosen on the dev questions of every eval corpus for the first
 * result and the first five together; the agent's own ranking is better without it.
 */
const SEARCH_TITLE_NAMED_BONUS = 0.6;
/** Query terms below this weight (synonyms) do not name a title. */
const TITLE_NAMING_MIN_WEIGHT = 0.5;
/** Best lexical passages grouped into articles (a common word matches thousands in a large help centre). */
const LEXICAL_CANDIDATES = 300;
/** Lexical passages handed to fusion. */
const LEXICAL_DEPTH = 60;

export interface RankInput {
  index: PassageIndex;
  synonyms: (language: Language) => readonly SynonymGroup[];
  message: string;
  /** The visitor's earlier messages, oldest first. */
  previous: readonly string[];
  /** Other rankings of passages (best first) to fuse with the lexical one. */
  otherRankings?: ReadonlyArray<readonly RankedPassage[]>;
  fallbackLanguage?: Language;
}

/** A message of at most this many words may be read in the fallback language despite the detector. */
const SHORT_MESSAGE_WORDS = 3;

/**
 * The language a message is read and answered in: the detector's, except that a short one whose
 * every word the help centre writes in `fallback` articles is read in `fallback` ("dark mode" and
 * "sync client" score as French; "mot de passe" stays French, as no English article writes "passe").
 */
export function messageLanguage(index: PassageIndex, message: string, fallback: Language = "en"): Language {
  const detected = detectLanguage(message, fallback);
  if (detected === fallback) return detected;
  const words = wordsOf(message);
  if (words.length > SHORT_MESSAGE_WORDS) return detected;
  const written = words.filter((word) => !isStopWord(word, fallback)).map((word) => index.writesIn(word, fallback));
  const known = written.filter((writes) => writes !== undefined);
  return known.length > 0 && known.every(Boolean) ? fallback : detected;
}

export function rankArticles(input: RankInput): Ranking {
  const { index } = input;
  const language = messageLanguage(index, input.message, input.fallbackLanguage);
  const current = analyzeQuery(index, input.message, language, input.synonyms);
  const earlier = input.previous.at(-1);
  const context: AnalyzedQuery | undefined = earlier
    ? analyzeQuery(index, earlier, language, input.synonyms, { weight: PREVIOUS_MESSAGE_WEIGHT, firstBit: current.words.length })
    : undefined;

  const terms = context ? [...current.terms, ...context.terms] : current.terms;
  const words = [...current.words, ...(context?.words.map((word) => ({ ...word, weight: word.weight * PREVIOUS_MESSAGE_WEIGHT })) ?? [])];
  const { passages, found } = matchPassages(index, terms, current.words, language);
  const lexical = topByScore(passages, LEXICAL_CANDIDATES);
  const { relevance, strength } = articleRelevance(index, terms, lexical, found, words);
  const byRelevance = [...lexical].sort((a, b) => relevance(b.articleId) - relevance(a.articleId) || b.score - a.score);
  const fused = fuse(byRelevance.slice(0, LEXICAL_DEPTH), input.otherRankings ?? []);
  // The earlier message can only add evidence: a question complete on its own ("how do I get a
  // refund?" after "I want to talk to a human") keeps the coverage of its own words.
  const coverageOf = (matched: number) => Math.max(shareFound(current.words, matched), shareFound(words, matched));
  const articles = new Map<string, ArticleMatch>();
  for (const passage of fused) {
    let article = articles.get(passage.articleId);
    if (!article) {
      const { matched = 0, titleMatched = 0, passageShare = 0 } = found.get(passage.articleId) ?? {};
      article = {
        articleId: passage.articleId,
        coverage: coverageOf(matched),
        evidence: weightFound(words, matched),
        matched,
        titleShare: shareFound(words, titleMatched),
        passageShare,
        relevance: relevance(passage.articleId),
        strength: strength(passage.articleId),
        sections: [],
      };
      articles.set(passage.articleId, article);
    }
    article.sections.push(passage.section);
  }
  const own = new Set(current.terms.filter((term) => term.weight >= 1 && !term.term.includes(" ")).map((term) => term.term));
  for (const article of articles.values()) article.sections = headingsFirst(index, article.articleId, article.sections, own);
  return { language, articles: [...articles.values()], words, ownWords: current.words.length };
}

/** An article of a search ranking (searchRanking). */
export interface SearchMatch {
  articleId: string;
  /** Its relevance, as the agent weighs articles (articleRelevance), raised by how much of its title the query names. */
  score: number;
  /** Bit set of the query's subject words it contains (as written, corrected or by a synonym). */
  matched: number;
}

export interface SearchRanking {
  language: Language;
  /** Every article that contains at least one of the query's subject words, best first. */
  articles: SearchMatch[];
  /** The bits of all the query's subject words: an article with all of them has every word. */
  allWords: number;
  /** Words read as a typo's correction (query.ts AnalyzedQuery.corrections). */
  corrections: AnalyzedQuery["corrections"];
}

/**
 * A search box's query ranked against the index with the agent's analysis (stems, typo
 * corrections, synonyms, phrases; any word may match): every matching article, not only the
 * best few the agent quotes from, so that a list can be filtered and paged after ranking.
 */
export function searchRanking(
  index: PassageIndex,
  synonyms: (language: Language) => readonly SynonymGroup[],
  query: string,
  fallbackLanguage?: Language,
): SearchRanking {
  const language = messageLanguage(index, query, fallbackLanguage);
  const analyzed = analyzeQuery(index, query, language, synonyms);
  const { passages, found } = matchPassages(index, analyzed.terms, analyzed.words, language);
  const { relevance } = articleRelevance(index, analyzed.terms, topByScore(passages, passages.length), found, analyzed.words);
  const naming = new Set(analyzed.terms.filter((term) => term.weight >= TITLE_NAMING_MIN_WEIGHT).map((term) => term.term));
  const articles: SearchMatch[] = [];
  for (const [articleId, { matched }] of found) {
    // A passage reached only through a synonym phrase's single words stands for none of the words.
    if (matched === 0) continue;
    const score = relevance(articleId) * (1 + SEARCH_TITLE_NAMED_BONUS * index.titleNamed(articleId, naming));
    articles.push({ articleId, score, matched });
  }
  articles.sort((a, b) => b.score - a.score || (a.articleId < b.articleId ? -1 : 1));
  const allWords = analyzed.words.reduce((bits, word) => bits | word.bit, 0);
  return { language, articles, allWords, corrections: analyzed.corrections };
}

/** The summed weight of `words` whose bits are in `matched`. */
function weightFound(words: ReadonlyArray<{ bit: number; weight: number }>, matched: number): number {
  return words.reduce((sum, word) => sum + (matched & word.bit ? word.weight : 0), 0);
}

/** The share of `words`, by weight, whose bits are in `matched` (0 when there are none). */
function shareFound(words: ReadonlyArray<{ bit: number; weight: number }>, matched: number): number {
  const total = words.reduce((sum, word) => sum + word.weight, 0);
  return total > 0 ? weightFound(words, matched) / total : 0;
}

/** The `k` best-scored items, best first, without sorting them all. */
function topByScore<T extends { score: number }>(items: T[], k: number): T[] {
  if (items.length <= k) return items.sort((a, b) => b.score - a.score);
  // The k-th best score by sorting a copy of the scores only (numbers sort far faster than objects).
  const scores = Float64Array.from(items, (item) => item.score).sort();
  const cut = scores[scores.length - k]!;
  return items.filter((item) => item.score >= cut).sort((a, b) => b.score - a.score);
}

/** What an article's passages matched of a query (matchPassages). */
interface ArticleWords {
  /** Bit set of the subject words found in any of its passages. */
  matched: number;
  /** Those found in its title. */
  titleMatched: number;
  /** The largest share of the message's own subject words found in one passage. */
  passageShare: number;
}

/** Every passage matching some of `terms`, scored, and what each article matched. */
function matchPassages(
  index: PassageIndex,
  terms: readonly QueryTerm[],
  ownWords: readonly SubjectWord[],
  language: Language,
): { passages: RankedPassage[]; found: Map<string, ArticleWords> } {
  const found = new Map<string, ArticleWords>();
  const passages: RankedPassage[] = [];
  for (const entry of index.score(terms).values()) {
    const passage = index.passages[entry.passage]!;
    const score = passage.language === language ? entry.score * SAME_LANGUAGE_BOOST : entry.score;
    passages.push({ articleId: passage.articleId, section: passage.section, score });
    const share = shareFound(ownWords, entry.matched);
    const article = found.get(passage.articleId);
    if (!article) found.set(passage.articleId, { matched: entry.matched, titleMatched: entry.titleMatched, passageShare: share });
    else {
      article.matched |= entry.matched;
      article.titleMatched |= entry.titleMatched;
      article.passageShare = Math.max(article.passageShare, share);
    }
  }
  return { passages, found };
}

/**
 * Each article's relevance (see ARTICLE_SCORE_SHARE): its passage strength (its best passage plus
 * shares of its next two: an article that answers in several places is more likely about the
 * question) and its whole-article score, each divided by the best of the candidates, raised by
 * what its title and best passage hold. `passages`: the candidates, best first.
 */
function articleRelevance(
  index: PassageIndex,
  terms: readonly QueryTerm[],
  passages: readonly RankedPassage[],
  found: ReadonlyMap<string, ArticleWords>,
  words: readonly SubjectWord[],
): { relevance: (articleId: string) => number; strength: (articleId: string) => number } {
  const best = new Map<string, number[]>();
  for (const passage of passages) {
    const scores = best.get(passage.articleId);
    if (!scores) best.set(passage.articleId, [passage.score]);
    else if (scores.length < 3) scores.push(passage.score);
  }
  const articleScores = index.scoreArticles(terms, new Set(best.keys()));
  const strength = new Map<string, number>();
  for (const [articleId, [first = 0, second = 0, third = 0]] of best)
    strength.set(articleId, first + SUPPORT[0] * second + SUPPORT[1] * third);
  let topStrength = 0;
  let topScore = 0;
  for (const [articleId, value] of strength) {
    topStrength = Math.max(topStrength, value);
    topScore = Math.max(topScore, articleScores.get(articleId) ?? 0);
  }
  const relevance = new Map<string, number>();
  const rareIdf = index.rareWordIdf();
  for (const [articleId, articleStrength] of strength) {
    const share = ARTICLE_SCORE_SHARE * ((articleScores.get(articleId) ?? 0) / (topScore || 1));
    const base = share + (1 - ARTICLE_SCORE_SHARE) * (articleStrength / (topStrength || 1));
    const article = found.get(articleId);
    const bonus = article ? TITLE_BONUS * shareFound(words, article.titleMatched) + PASSAGE_BONUS * article.passageShare : 0;
    relevance.set(articleId, base * (1 + bonus));
  }
  return { relevance: (articleId) => relevance.get(articleId) ?? 0, strength: (articleId) => (strength.get(articleId) ?? 0) / rareIdf };
}

/** Of an article's best few sections, those whose heading names more of the visitor's own words come first. */
const HEADING_CANDIDATES = 3;

function headingsFirst(index: PassageIndex, articleId: string, sections: number[], own: ReadonlySet<string>): number[] {
  const named = (section: number) => {
    const passage = index.passageOf(articleId, section);
    return passage ? passage.heading.filter((term) => own.has(term)).length : 0;
  };
  const top = sections.slice(0, HEADING_CANDIDATES).map((section, rank) => ({ section, rank, named: named(section) }));
  top.sort((a, b) => b.named - a.named || a.rank - b.rank);
  return [...top.map((entry) => entry.section), ...sections.slice(HEADING_CANDIDATES)];
}

/** The one place rankings meet: reciprocal rank fusion of passages; one ranking passes unchanged. */
export function fuse(lexical: readonly RankedPassage[], others: ReadonlyArray<readonly RankedPassage[]>): RankedPassage[] {
  const lists = [lexical, ...others.filter((list) => list.length > 0)];
  if (lists.length === 1) return [...lexical];
  return reciprocalRankFusion(lists, (passage) => `${passage.articleId}\u0000${passage.section}`);
}
