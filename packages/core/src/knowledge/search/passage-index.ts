// An in-memory BM25F index of passages: each section of an article (platform/text.ts sectionsOf, the one
// splitter) is a document with three fields, the article's title, the section's heading and its
// body. Terms are Snowball stems in the article's language (analyze.ts), plus the pairs of
// adjacent stems, so a query's phrase ("charged twice") scores above its words scattered.
import { distance } from "fastest-levenshtein";
import { sectionsOf } from "../articles/sections.ts";
import { LANGUAGES, type Language } from "../languages/detection.ts";
import { joinedWordsOf, stem, termsOf, wordsOf } from "./analyze.ts";

export interface IndexedArticle {
  id: string;
  title: string;
  content: string;
  language: Language;
}

export interface Passage {
  articleId: string;
  /** Index of the section in sectionsOf(content). */
  section: number;
  language: Language;
  /** The stems of its heading (what the section says it is about). */
  heading: readonly string[];
}

const FIELDS = 3; // title, heading, body
// BM25F: a word in a section's heading says most about which passage answers, one in the article's
// title (shared by all its passages) says which article, one in the body least (set on the eval).
const FIELD_WEIGHTS = [2.5, 4, 1] as const;
const FIELD_B = [0.3, 0.3, 0.75] as const;
/**
 * The same fields over a whole article (its headings and its bodies together): a question's words
 * spread over an article's sections say it is about the question even when no one section holds
 * them all. A title word weighs most here: the title names what the whole article is about.
 */
const ARTICLE_FIELD_WEIGHTS = [3, 1.5, 1] as const;
const ARTICLE_FIELD_B = [0.3, 0.5, 0.75] as const;
const K1 = 1.2;
/** The shortest unknown word read as the start of a longer one the help centre writes ("encryp"). */
const PREFIX_MIN_LENGTH = 4;
/** At most this many letters are added to complete an unknown word. */
const PREFIX_MAX_EXTRA = 4;
/**
 * The shortest word a typo is looked for in ("grup" for "group", "clok" for "clock"): a short
 * English word spelled right is never read as another (query.ts), so four letters are safe.
 */
const CORRECTABLE_MIN_LENGTH = 4;

/** Whether the index keeps `word` as written, to correct typos against: long enough, no digit (codes). */
function isCorrectable(word: string): boolean {
  return word.length >= CORRECTABLE_MIN_LENGTH && !/\d/.test(word);
}
/**
 * Postings of pairs found in bodies kept for the next questions: at most this many per passage of
 * the index (and at least PAIR_CACHE_MIN_ENTRIES), so that each agent's cache stays a small share
 * of its index however many agents an instance holds.
 */
const PAIR_CACHE_ENTRIES_PER_PASSAGE = 2;
const PAIR_CACHE_MIN_ENTRIES = 5_000;
/** The shortest word in which two typos are looked for ("explorer" is two letters from "exporter"). */
const TWO_TYPOS_MIN_LENGTH = 10;

/** Postings of one term: passage ids, and per passage its frequency in each field. */
interface Postings {
  /** The term's number in the bodies' term sequences (PassageIndex.bodyTerms). */
  id: number;
  passages: number[];
  /** Per passage, its frequency in each field packed in one number (packTf). */
  tf: number[];
}

/** A term of a query, with its weight and which of the query's subject words it stands for. */
export interface QueryTerm {
  term: string;
  weight: number;
  /** Bit set of the query words this term expresses (a synonym or a correction stands for its source words). */
  sources: number;
}

export interface PassageScore {
  passage: number;
  score: number;
  /** Bit set of the query words (QueryTerm.sources) the passage matched. */
  matched: number;
  /** Those of them found in the article's title. */
  titleMatched: number;
}

/** The bodies' term sequences while the index is built (PassageIndex.bodyTerms). */
interface BodySequences {
  terms: number[];
  starts: number[];
}

/** Levenshtein distance, with two swapped neighbouring letters ("refnud") counting as one edit. */
export function editDistance(a: string, b: string): number {
  if (a.length === b.length) {
    const differ: number[] = [];
    for (let i = 0; i < a.length && differ.length <= 2; i++) if (a[i] !== b[i]) differ.push(i);
    if (differ.length === 2 && differ[1] === differ[0]! + 1 && a[differ[0]!] === b[differ[1]!] && a[differ[1]!] === b[differ[0]!]) return 1;
  }
  return distance(a, b);
}

function languageBit(language: Language): number {
  return 1 << LANGUAGES.indexOf(language);
}

export function bigram(a: string, b: string): string {
  return `${a} ${b}`;
}

// A term's frequency in each field of a passage, packed into one small integer (10 bits a field,
// capped): a 10k-article help centre has millions of postings, and the server's heap is small.
const TF_BITS = 10;
const TF_MAX = (1 << TF_BITS) - 1;

function packTf(tf: readonly number[]): number {
  let packed = 0;
  for (let field = FIELDS - 1; field >= 0; field--) packed = packed * (TF_MAX + 1) + Math.min(tf[field]!, TF_MAX);
  return packed;
}

function fieldTf(packed: number, field: number): number {
  return Math.floor(packed / (TF_MAX + 1) ** field) & TF_MAX;
}

/** Adds a field's hyphenated words joined ("subfolder" for "sub-folder"), beside their parts. */
function addJoined(counts: Map<string, number[]>, terms: string[], text: string, language: Language, field: number): void {
  for (const word of joinedWordsOf(text)) {
    const term = stem(word, language);
    if (terms.includes(term)) continue;
    let tf = counts.get(term);
    if (!tf) {
      tf = new Array<number>(FIELDS).fill(0);
      counts.set(term, tf);
    }
    tf[field]! += 1;
  }
}

/**
 * Adds a field's terms, and pairs of adjacent terms for the title and heading (the body's pairs
 * are found when a query asks for them: PassageIndex.pairPostings).
 */
function addTerms(counts: Map<string, number[]>, terms: string[], field: number): void {
  const add = (term: string) => {
    let tf = counts.get(term);
    if (!tf) {
      tf = new Array<number>(FIELDS).fill(0);
      counts.set(term, tf);
    }
    tf[field]! += 1;
  };
  for (let i = 0; i < terms.length; i++) {
    add(terms[i]!);
    if (i > 0 && field < 2) add(bigram(terms[i - 1]!, terms[i]!));
  }
}

export class PassageIndex {
  readonly passages: Passage[] = [];
  private readonly lengths: number[] = []; // FIELDS per passage
  private readonly postings = new Map<string, Postings>();
  private readonly totalLength = new Array<number>(FIELDS).fill(0);
  /**
   * The words as written (folded, not stemmed) and how often each occurs, by length: typos are
   * corrected against these ("chaged" is one letter from "charged"; its stem "chage" is two from
   * "charg"), then stemmed like the visitor's other words. `languages`: the bits (languageBit) of
   * the languages of the articles that write it.
   */
  private readonly written = new Map<string, { count: number; term: string; languages: number }>();
  private readonly byLength = new Map<number, string[]>();
  private readonly corrections = new Map<string, string[]>();
  private readonly firstPassage = new Map<string, number>();
  /** Per article: its title's length, and its headings' and its bodies' summed lengths. */
  private readonly articleLengths = new Map<string, number[]>();
  private readonly articleTotalLength = new Array<number>(FIELDS).fill(0);
  private readonly titles = new Map<string, ReadonlySet<string>>();
  /**
   * Every passage's body as its sequence of term numbers (Postings.id), one after another, and
   * where each passage's starts: a phrase's occurrences in bodies are found from these when it is
   * asked for (pairPostings), as indexing every pair of body words would triple the index.
   */
  private readonly bodyTerms: Int32Array;
  private readonly bodyStarts: Int32Array;
  /** The pairs asked for lately (a question's pairs are looked up several times a turn), and their postings' size. */
  private readonly pairs = new Map<string, Postings | null>();
  private pairEntries = 0;

  constructor(articles: Iterable<IndexedArticle>) {
    const bodies: BodySequences = { terms: [], starts: [] };
    for (const article of articles) this.add(article, bodies);
    bodies.starts.push(bodies.terms.length);
    this.bodyTerms = Int32Array.from(bodies.terms);
    this.bodyStarts = Int32Array.from(bodies.starts);
    for (const word of this.written.keys()) {
      const list = this.byLength.get(word.length) ?? [];
      list.push(word);
      this.byLength.set(word.length, list);
    }
  }

  get size(): number {
    return this.passages.length;
  }

  private add(article: IndexedArticle, bodies: BodySequences): void {
    const title = termsOf(article.title, article.language);
    this.titles.set(article.id, new Set(title));
    this.firstPassage.set(article.id, this.passages.length);
    const text = `${article.title}\n${article.content}`;
    for (const word of [...wordsOf(text), ...joinedWordsOf(text)]) {
      if (!isCorrectable(word)) continue;
      const known = this.written.get(word);
      if (known) {
        known.count++;
        known.languages |= languageBit(article.language);
      } else this.written.set(word, { count: 1, term: stem(word, article.language), languages: languageBit(article.language) });
    }
    const articleLength = [title.length, 0, 0];
    this.articleLengths.set(article.id, articleLength);
    this.articleTotalLength[0]! += title.length;
    sectionsOf(article.content).forEach((section, index) => {
      const heading = termsOf(section.heading, article.language);
      const body = termsOf(section.sentences.join(" "), article.language);
      const id = this.passages.length;
      this.passages.push({ articleId: article.id, section: index, language: article.language, heading });
      bodies.starts.push(bodies.terms.length);
      for (const term of body) bodies.terms.push(this.postingsFor(term).id);
      const counts = new Map<string, number[]>();
      addTerms(counts, title, 0);
      addTerms(counts, heading, 1);
      addTerms(counts, body, 2);
      addJoined(counts, title, article.title, article.language, 0);
      addJoined(counts, heading, section.heading, article.language, 1);
      addJoined(counts, body, section.sentences.join(" "), article.language, 2);
      const lengths = [title.length, heading.length, body.length];
      for (let field = 0; field < FIELDS; field++) {
        this.totalLength[field]! += lengths[field]!;
        if (field > 0) {
          articleLength[field]! += lengths[field]!;
          this.articleTotalLength[field]! += lengths[field]!;
        }
      }
      this.lengths.push(...lengths);
      for (const [term, tf] of counts) {
        const postings = this.postingsFor(term);
        postings.passages.push(id);
        postings.tf.push(packTf(tf));
      }
    });
  }

  /** A term's postings, new and empty if the index has none yet. */
  private postingsFor(term: string): Postings {
    let postings = this.postings.get(term);
    if (!postings) {
      postings = { id: this.postings.size, passages: [], tf: [] };
      this.postings.set(term, postings);
    }
    return postings;
  }

  /** A term's postings; a pair's (bigram) with its occurrences in bodies. */
  private postingsOf(term: string): Postings | undefined {
    const space = term.indexOf(" ");
    if (space < 0) return this.postings.get(term);
    let pair = this.pairs.get(term);
    if (pair === undefined) {
      pair = this.pairPostings(term, term.slice(0, space), term.slice(space + 1)) ?? null;
      const size = 1 + (pair?.passages.length ?? 0);
      if (this.pairEntries + size > Math.max(PAIR_CACHE_MIN_ENTRIES, PAIR_CACHE_ENTRIES_PER_PASSAGE * this.passages.length)) {
        this.pairs.clear();
        this.pairEntries = 0;
      }
      this.pairs.set(term, pair);
      this.pairEntries += size;
    }
    return pair ?? undefined;
  }

  /**
   * The pair's postings in titles and headings (indexed), merged with the passages whose body
   * writes `first` right before `second` (among those holding both words).
   */
  private pairPostings(pair: string, first: string, second: string): Postings | undefined {
    const indexed = this.postings.get(pair);
    const a = this.postings.get(first);
    const b = this.postings.get(second);
    if (!a || !b) return indexed;
    const merged: Postings = { id: -1, passages: [], tf: [] };
    let k = 0;
    const keepIndexedBefore = (passage: number) => {
      while (indexed && k < indexed.passages.length && indexed.passages[k]! < passage) {
        merged.passages.push(indexed.passages[k]!);
        merged.tf.push(indexed.tf[k]!);
        k++;
      }
    };
    for (let i = 0, j = 0; i < a.passages.length && j < b.passages.length; ) {
      const passage = a.passages[i]!;
      if (passage < b.passages[j]!) i++;
      else if (passage > b.passages[j]!) j++;
      else {
        const inBody = fieldTf(a.tf[i]!, 2) > 0 && fieldTf(b.tf[j]!, 2) > 0 ? this.adjacentInBody(passage, a.id, b.id) : 0;
        if (inBody > 0) {
          keepIndexedBefore(passage);
          const same = indexed?.passages[k] === passage ? indexed.tf[k++]! : 0;
          merged.passages.push(passage);
          merged.tf.push(packTf([fieldTf(same, 0), fieldTf(same, 1), inBody]));
        }
        i++;
        j++;
      }
    }
    keepIndexedBefore(Number.POSITIVE_INFINITY);
    return merged.passages.length > 0 ? merged : undefined;
  }

  /** How many times a passage's body writes term `first` right before term `second` (by number). */
  private adjacentInBody(passage: number, first: number, second: number): number {
    const end = this.bodyStarts[passage + 1]!;
    let count = 0;
    for (let at = this.bodyStarts[passage]! + 1; at < end; at++) {
      if (this.bodyTerms[at] === second && this.bodyTerms[at - 1] === first) count++;
    }
    return count;
  }

  /** The passage of an article's section, if indexed. */
  passageOf(articleId: string, section: number): Passage | undefined {
    const first = this.firstPassage.get(articleId);
    const passage = first === undefined ? undefined : this.passages[first + section];
    return passage?.articleId === articleId && passage.section === section ? passage : undefined;
  }

  /** The share (0..1) of an article's title terms among `terms`: how much of its title a query names. */
  titleNamed(articleId: string, terms: ReadonlySet<string>): number {
    const title = this.titles.get(articleId);
    if (!title || title.size === 0) return 0;
    let named = 0;
    for (const term of title) if (terms.has(term)) named++;
    return named / title.size;
  }

  /** How many passages contain `term`. */
  documentFrequency(term: string): number {
    return this.postingsOf(term)?.passages.length ?? 0;
  }

  /** Inverse document frequency (BM25's, never negative); an unknown term has the highest. */
  idf(term: string): number {
    const df = this.documentFrequency(term);
    return Math.log(1 + (this.passages.length - df + 0.5) / (df + 0.5));
  }

  /** The idf of a word only one passage holds: the most a word that occurs can say here. */
  rareWordIdf(): number {
    return Math.log(1 + (this.passages.length - 0.5) / 1.5);
  }

  /**
   * Written words within a small edit distance of an unknown or rare one of at least 5 letters (1
   * up to 9 letters, 2 from 10), several times more frequent than it: what the visitor most likely
   * meant to type. Shorter words have too many neighbours to guess from. An unknown word of 4
   * letters or more that no typo explains may be the start of longer written words.
   */
  correctionsOf(word: string): string[] {
    const cached = this.corrections.get(word);
    if (cached) return cached;
    const found: Array<{ word: string; count: number }> = [];
    const own = this.written.get(word)?.count ?? 0;
    if (isCorrectable(word)) {
      const allowed = word.length < TWO_TYPOS_MIN_LENGTH ? 1 : 2;
      for (let length = word.length - allowed; length <= word.length + allowed; length++) {
        for (const candidate of this.byLength.get(length) ?? []) {
          if (candidate === word || (candidate[0] !== word[0] && candidate[1] !== word[1])) continue;
          const count = this.written.get(candidate)?.count ?? 0;
          if (count <= own * 4) continue;
          if (editDistance(candidate, word) <= allowed) found.push({ word: candidate, count });
        }
      }
    }
    // A word the help centre never writes and no typo explains may be cut short ("encryp").
    if (found.length === 0 && own === 0 && word.length >= PREFIX_MIN_LENGTH && !/\d/.test(word)) {
      for (let length = word.length + 1; length <= word.length + PREFIX_MAX_EXTRA; length++) {
        for (const candidate of this.byLength.get(length) ?? []) {
          if (candidate.startsWith(word)) found.push({ word: candidate, count: this.written.get(candidate)?.count ?? 0 });
        }
      }
    }
    const best = found
      .sort((a, b) => b.count - a.count)
      .slice(0, 3)
      .map((entry) => entry.word);
    if (this.corrections.size > 10_000) this.corrections.clear();
    this.corrections.set(word, best);
    return best;
  }

  /**
   * The term a word is indexed under where the help centre writes it: its stem in the language of
   * the article it appears in ("reembolso" asked alone reads as English, but is a Spanish word).
   */
  writtenTerm(word: string): string | undefined {
    return this.written.get(word)?.term;
  }

  /**
   * Whether an article in `language` writes `word` (folded); undefined for a word too short for
   * the index to keep as written (isCorrectable).
   */
  writesIn(word: string, language: Language): boolean | undefined {
    if (!isCorrectable(word)) return undefined;
    return ((this.written.get(word)?.languages ?? 0) & languageBit(language)) !== 0;
  }

  /**
   * The `candidates` among the articles matching some query term, with their BM25F score over the whole article: a term's
   * frequency in each field summed over the article's passages (the title counted once, as every
   * passage repeats it), normalised by the article's field lengths, idf over articles.
   */
  scoreArticles(query: readonly QueryTerm[], candidates: ReadonlySet<string>): Map<string, number> {
    const n = this.articleLengths.size;
    const average = this.articleTotalLength.map((total) => (n > 0 ? total / n : 0));
    const scores = new Map<string, number>();
    for (const { term, weight } of query) {
      const postings = this.postingsOf(term);
      if (!postings) continue;
      // An article's passages are indexed one after another, so its postings are too: the
      // articles holding the term (its idf) are counted as the article changes, and only the
      // candidates' frequencies are kept.
      let articles = 0;
      let previous: string | undefined;
      const tfByArticle = new Map<string, number[]>();
      for (let i = 0; i < postings.passages.length; i++) {
        const articleId = this.passages[postings.passages[i]!]!.articleId;
        if (articleId !== previous) {
          articles++;
          previous = articleId;
        }
        if (!candidates.has(articleId)) continue;
        let tf = tfByArticle.get(articleId);
        if (!tf) {
          tf = new Array<number>(FIELDS).fill(0);
          tfByArticle.set(articleId, tf);
        }
        tf[0] = Math.max(tf[0]!, fieldTf(postings.tf[i]!, 0));
        for (let field = 1; field < FIELDS; field++) tf[field]! += fieldTf(postings.tf[i]!, field);
      }
      const idf = Math.log(1 + (n - articles + 0.5) / (articles + 0.5));
      for (const [articleId, raw] of tfByArticle) {
        const lengths = this.articleLengths.get(articleId)!;
        let tf = 0;
        for (let field = 0; field < FIELDS; field++) {
          if (raw[field] === 0) continue;
          const norm = 1 - ARTICLE_FIELD_B[field]! + ARTICLE_FIELD_B[field]! * (lengths[field]! / (average[field]! || 1));
          tf += (ARTICLE_FIELD_WEIGHTS[field]! * raw[field]!) / norm;
        }
        scores.set(articleId, (scores.get(articleId) ?? 0) + (weight * idf * tf) / (K1 + tf));
      }
    }
    return scores;
  }

  /** Every passage matching some query term, with its BM25F score and the query words it matched. */
  score(query: readonly QueryTerm[]): Map<number, PassageScore> {
    const n = this.passages.length;
    const average = this.totalLength.map((total) => (n > 0 ? total / n : 0));
    const scores = new Map<number, PassageScore>();
    for (const { term, weight, sources } of query) {
      const postings = this.postingsOf(term);
      if (!postings) continue;
      const idf = this.idf(term);
      for (let i = 0; i < postings.passages.length; i++) {
        const passage = postings.passages[i]!;
        let tf = 0;
        for (let field = 0; field < FIELDS; field++) {
          const raw = fieldTf(postings.tf[i]!, field);
          if (raw === 0) continue;
          const norm = 1 - FIELD_B[field]! + FIELD_B[field]! * (this.lengths[passage * FIELDS + field]! / (average[field]! || 1));
          tf += (FIELD_WEIGHTS[field]! * raw) / norm;
        }
        const gain = (weight * idf * tf) / (K1 + tf);
        const inTitle = fieldTf(postings.tf[i]!, 0) > 0 ? sources : 0;
        const entry = scores.get(passage);
        if (entry) {
          entry.score += gain;
          entry.matched |= sources;
          entry.titleMatched |= inTitle;
        } else scores.set(passage, { passage, score: gain, matched: sources, titleMatched: inTitle });
      }
    }
    return scores;
  }
}
