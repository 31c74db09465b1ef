// The passage of an article the knowledge agent quotes: the section the ranking chose (its
// heading and words matched the question best), in whole sentences up to
// KNOWLEDGE_ANSWER_MAX_CHARS. A section that fits is quoted whole (steps stay complete); a longer
// one from the run of sentences that holds most of the question's words.

import type { Section } from "../knowledge/articles/sections.ts";
import type { Language } from "../knowledge/languages/detection.ts";
import { termsOf } from "../knowledge/search/analyze.ts";
import { KNOWLEDGE_ANSWER_MAX_CHARS } from "./limits.ts";

/** The sentences of `section` to quote for a question whose subject stems are `terms`. */
export function quoteSection(section: Section, terms: ReadonlySet<string>, language: Language, max = KNOWLEDGE_ANSWER_MAX_CHARS): string {
  const { sentences } = section;
  const whole = sentences.join(" ");
  if (whole.length <= max) return whole;

  const scores = sentences.map((sentence) => new Set(termsOf(sentence, language).filter((term) => terms.has(term))).size);
  let best = { start: 0, end: 1, score: -1 };
  for (let start = 0; start < sentences.length; start++) {
    let length = 0;
    let score = 0;
    let end = start;
    while (end < sentences.length && (end === start || length + sentences[end]!.length + 1 <= max)) {
      length += sentences[end]!.length + 1;
      score += scores[end]!;
      end++;
    }
    // The window must open on a sentence about the question (or be the section's start).
    if ((start === 0 || scores[start]! > 0) && score > best.score) best = { start, end, score };
  }
  const passage = sentences.slice(best.start, best.end).join(" ");
  return passage.length > max ? `${passage.slice(0, max - 1).trimEnd()}…` : passage;
}
