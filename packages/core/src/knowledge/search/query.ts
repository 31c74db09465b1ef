// A visitor's message as weighted index terms: its subject words stemmed in its language (and in
// English, which most help centres are written in), corrections of words the index does not
// know, the other phrases of synonym groups it mentions, and its adjacent word pairs as phrases.

import type { Language } from "../languages/detection.ts";
import { KNOWLEDGE_QUERY_MAX_WORDS } from "../limits.ts";
import { isStopWord, isStopWordForm, stem, wordsOf } from "./analyze.ts";
import { isEnglishWord, isSpellingVariant } from "./english-words.ts";
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

/**
 * Of a word's candidate corrections (most frequent first), the one the help centre writes next to
 * a neighbouring word ("chaged twice": "charged twice", not "changed twice"), else the most frequent.
 */
function likeliestFix(
  index: PassageIndex,
  candidates: readonly string[],
  written: readonly string[],
  position: number,
  language: Language,
): string | undefined {
  if (candidates.length < 2) return candidates[0];
  const before = written[position - 1];
  const after = written[position + 1];
  const inPhrase = (candidate: string) => {
    const term = stem(candidate, language);
    return (
      (before !== undefined && index.documentFrequency(bigram(stem(before, language), term)) > 0) ||
      (after !== undefined && index.documentFrequency(bigram(term, stem(after, language))) > 0)
    );
  };
  return candidates.find(inPhrase) ?? candidates[0];
}

export interface SubjectWord {
  bit: number;
  /** Its idf, capped (SUBJECT_WORD_MAX_WEIGHT). */
  weight: number;
  /** Nothing the help centre writes stands for it: not as written, corrected, completed or by a synonym. */
  unknown: boolean;
}

export interface AnalyzedQuery {
  terms: QueryTerm[];
  /** The subject words' bits and how much each says (idf of its stem), for coverage. */
  words: SubjectWord[];
  /**
   * Subject words the help centre never writes that were read as a correction ("refnud" as
   * "refund"): the word's position among wordsOf(text), as written (folded) and as corrected.
   * What a search page offers as "Did you mean".
   */
  corrections: Array<{ position: number; written: string; corrected: string }>;
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
  const written = wordsOf(text).slice(0, 64);
  // A word the help centre does not know is read as its likeliest correction ("chaged" as
  // "charged"), counting a little less than a word the visitor spelled as written.
  // Only a word spelled wrong is a typo: never into a stop word ("whole" is not "while"), and an
  // English word spelled right is read as written ("weather" is not "leather"), unless the help
  // centre spells it the other side of the Atlantic ("organisation" as "organization"). That holds
  // in a message read as another language too: "dark mode" may read as French, but "mode" is no
  // typo of "code".
  const fixes = written.map((word) => {
    if (index.documentFrequency(stem(word, language)) > 1) return [];
    const candidates = index.correctionsOf(word).filter((fix) => !isStopWord(fix, language));
    if (candidates.length === 0 || !isEnglishWord(word)) return candidates;
    return candidates.filter((fix) => isSpellingVariant(word, fix) && isEnglishWord(fix));
  });
  const corrected = fixes.map((candidates, position) => likeliestFix(index, candidates, written, position, language));
  // A word written in the help centre but in another language than the message's is searched as
  // the articles index it.
  const elsewhere = written.map((word) => {
    const term = index.documentFrequency(stem(word, language)) <= 1 ? index.writtenTerm(word) : undefined;
    return term && index.documentFrequency(term) > 1 ? term : undefined;
  });
  const words = written.map((word, position) => corrected[position] ?? word);
  const set = new TermSet();
  const subject: AnalyzedQuery["words"] = [];
  const corrections: AnalyzedQuery["corrections"] = [];
  const bitOf = new Map<number, number>(); // word position -> bit
  words.forEach((word, position) => {
    const typed = written[position]!;
    if (isStopWord(typed, language) || (language !== "en" && isStopWord(typed, "en") && typed.length < 4)) return;
    // Another form of a stop word that the help centre never writes ("sees", "wants") says no
    // more than the stop word: as a word nothing stands for, it would count towards "I don't know".
    if (!corrected[position] && index.documentFrequency(stem(typed, language)) === 0 && isStopWordForm(typed, language)) return;
    const n = firstBit + subject.length;
    if (n >= KNOWLEDGE_QUERY_MAX_WORDS) return; // a long rambling message ranks by its first ones
    const bit = 1 << n;
    bitOf.set(position, bit);
    const fix = corrected[position];
    const term = elsewhere[position] ?? (fix ? (index.writtenTerm(fix) ?? stem(fix, language)) : stem(word, language));
    subject.push({ bit, weight: Math.min(index.idf(term), SUBJECT_WORD_MAX_WEIGHT), unknown: true });
    // Only a word that matches nothing as written is a typo worth pointing out.
    if (fix && !elsewhere[position] && index.documentFrequency(stem(typed, language)) === 0) {
      corrections.push({ position, written: typed, corrected: fix });
    }
  });

  const languages: Language[] = language === "en" ? ["en"] : [language, "en"];
  for (const analysis of languages) {
    const weight = scale * (analysis === language ? 1 : OTHER_LANGUAGE_WEIGHT);
    const stems = words.map((word) => stem(word, analysis));
    let previous: { term: string; bit: number } | undefined;
    stems.forEach((term, position) => {
      const bit = bitOf.get(position);
      if (bit === undefined) return;
      set.add(term, corrected[position] ? weight * CORRECTION_WEIGHT : weight, bit);
      const asIndexed = elsewhere[position];
      if (asIndexed) set.add(asIndexed, weight, bit);
      for (const fix of fixes[position]!) {
        set.add(index.writtenTerm(fix) ?? stem(fix, analysis), (weight * CORRECTION_WEIGHT) / (fix === corrected[position] ? 1 : 2), bit);
      }
      if (previous) set.add(bigram(previous.term, term), weight * PHRASE_WEIGHT, previous.bit | bit);
      previous = { term, bit };
    });
    // Two words the help centre writes as one ("time sheet", "non profit": "timesheet",
    // "nonprofit") are searched joined too, counting as their phrase does.
    for (let position = 0; position + 1 < written.length; position++) {
      const bits = (bitOf.get(position) ?? 0) | (bitOf.get(position + 1) ?? 0);
      if (bits === 0) continue;
      const joined = stem(written[position]! + written[position + 1]!, analysis);
      if (index.documentFrequency(joined) > 0) set.add(joined, weight * PHRASE_WEIGHT, bits);
    }
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
  const terms = set.list();
  for (const term of terms) {
    if (index.documentFrequency(term.term) === 0) continue;
    for (const word of subject) if (term.sources & word.bit) word.unknown = false;
  }
  return { terms, words: subject, corrections };
}
