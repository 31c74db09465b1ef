// A visitor's message as weighted index terms: its subject words stemmed in its language (and in
// English, which most help centres are written in), corrections of words the index does not
// know, the other phrases of synonym groups it mentions, and its adjacent word pairs as phrases.
import { KNOWLEDGE_QUERY_MAX_WORDS } from "../../limits.ts";
import { isStopWord, stem, wordsOf } from "./analyze.ts";
import type { Language } from "./languages.ts";
import { bigram, type PassageIndex, type QueryTerm } from "./passage-index.ts";
import { type SynonymGroup, synonymExpansions } from "./synonyms.ts";

// How much a term counts relative to a word the visitor wrote.
const CORRECTION_WEIGHT = 0.8;
// Synonyms widen recall but each group also pulls in neighbouring topics: they count well below
// the visitor's own words (the eval's top-1 fell as this weight rose past about 0.4).
const SYNONYM_WEIGHT = 0.35;
const PHRASE_WEIGHT = 0.6;
const OTHER_LANGUAGE_WEIGHT = 0.6;
/**
 * A subject word's weight in coverage is its idf, capped: a word the help centre never uses still
 * counts against an answer ("bitcoin"), but no single rare word outweighs the rest.
 */
const SUBJECT_WORD_MAX_WEIGHT = 5;

export interface AnalyzedQuery {
  terms: QueryTerm[];
  /** The subject words' bits and how much each says (idf of its stem), for coverage. */
  words: Array<{ bit: number; weight: number }>;
}

class TermSet {
  private readonly terms = new Map<string, QueryTerm>();
  add(term: string, weight: number, sources: number): void {
    const known = this.terms.get(term);
    if (!known) this.terms.set(term, { term, weight, sources });
    else {
      known.weight = Math.max(known.weight, weight);
      known.sources |= sources;
    }
  }
  list(): QueryTerm[] {
    return [...this.terms.values()];
  }
}

/**
 * The terms of `text` for `index`. `weight` scales them all (earlier messages of a follow-up
 * count less); `firstBit` numbers its words after those of another text of the same query.
 */
export function analyzeQuery(
  index: PassageIndex,
  text: string,
  language: Language,
  synonyms: (language: Language) => readonly SynonymGroup[],
  options: { weight?: number; firstBit?: number } = {},
): AnalyzedQuery {
  const scale = options.weight ?? 1;
  const firstBit = options.firstBit ?? 0;
  const words = wordsOf(text).slice(0, 64);
  const set = new TermSet();
  const subject: AnalyzedQuery["words"] = [];
  const bitOf = new Map<number, number>(); // word position -> bit
  words.forEach((word, position) => {
    if (isStopWord(word, language) || (language !== "en" && isStopWord(word, "en") && word.length < 4)) return;
    const n = firstBit + subject.length;
    if (n >= KNOWLEDGE_QUERY_MAX_WORDS) return; // a long rambling message ranks by its first ones
    const bit = 1 << n;
    bitOf.set(position, bit);
    const own = stem(word, language);
    subject.push({ bit, weight: Math.min(index.idf(own), SUBJECT_WORD_MAX_WEIGHT) });
  });

  const languages: Language[] = language === "en" ? ["en"] : [language, "en"];
  for (const analysis of languages) {
    const weight = scale * (analysis === language ? 1 : OTHER_LANGUAGE_WEIGHT);
    const stems = words.map((word) => stem(word, analysis));
    let previous: { term: string; bit: number } | undefined;
    stems.forEach((term, position) => {
      const bit = bitOf.get(position);
      if (bit === undefined) return;
      set.add(term, weight, bit);
      if (index.documentFrequency(term) <= 1) for (const fix of index.correctionsOf(term)) set.add(fix, weight * CORRECTION_WEIGHT, bit);
      if (previous) set.add(bigram(previous.term, term), weight * PHRASE_WEIGHT, previous.bit | bit);
      previous = { term, bit };
    });
    for (const { at, length, phrases } of synonymExpansions(stems, synonyms(analysis))) {
      let bits = 0;
      for (let position = at; position < at + length; position++) bits |= bitOf.get(position) ?? 0;
      if (bits === 0) continue;
      for (const phrase of phrases) {
        const content = phrase.filter((term) => !isStopWord(term, analysis));
        // A phrase of several words stands for the visitor's words only where it occurs whole
        // (as adjacent pairs): "lost" alone does not say "reset password".
        content.forEach((term, i) => {
          set.add(term, weight * SYNONYM_WEIGHT, content.length === 1 ? bits : 0);
          if (i > 0) set.add(bigram(content[i - 1]!, term), weight * SYNONYM_WEIGHT * PHRASE_WEIGHT, bits);
        });
      }
    }
  }
  return { terms: set.list(), words: subject };
}
