// The passage of an article the knowledge agent quotes: the section the ranking chose (its
// heading and words matched the question best), in whole sentences up to
// KNOWLEDGE_ANSWER_MAX_CHARS. A section that fits is quoted whole (steps stay complete); a longer
// one from the run of sentences that holds most of the question's words.
//
// The quote is Markdown laid out as the article was: a paragraph's sentences stay one paragraph,
// list items stay items ("3." when the quote starts at the third step), table rows become the
// items of a bulleted list. The words are the article's plain text (no emphasis, links or HTML:
// the article card links to the whole article), written so that Markdown reads them literally.
// The length limit counts those words (sentences joined by a space), not the layout, so the
// layout never changes which sentences are chosen.

import type { Section, SectionBlock } from "../knowledge/articles/sections.ts";
import type { Language } from "../knowledge/languages/detection.ts";
import { termsOf } from "../knowledge/search/analyze.ts";
import { markdownLiteral } from "../platform/markdown.ts";
import { KNOWLEDGE_ANSWER_MAX_CHARS } from "./limits.ts";

export interface Quote {
  /** The quoted sentences as Markdown (see above). */
  markdown: string;
  /** Characters of the quoted sentences joined by spaces: what KNOWLEDGE_ANSWER_MAX_CHARS bounds. */
  length: number;
}

/** The sentences of `section` to quote for a question whose subject stems are `terms`. */
export function quoteSection(section: Section, terms: ReadonlySet<string>, language: Language, max = KNOWLEDGE_ANSWER_MAX_CHARS): Quote {
  const { sentences } = section;
  const whole = sentences.join(" ");
  if (whole.length <= max) return { markdown: layOut(section, 0, sentences.length), length: whole.length };

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
  if (passage.length <= max) return { markdown: layOut(section, best.start, best.end), length: passage.length };
  // Only a window of one sentence can be longer than the limit: that sentence is cut.
  const cut = `${passage.slice(0, max - 1).trimEnd()}…`;
  return { markdown: layOut(section, best.start, best.end, cut), length: cut.length };
}

/** A list item's or table row's marker. */
function marker(block: SectionBlock): string {
  return block.number === undefined ? "-" : `${block.number}.`;
}

/**
 * The Markdown of sentences [start, end) of `section`, in its blocks: paragraphs apart, the items
 * of one list (or rows of one table) on consecutive lines. `cut` replaces the one sentence quoted
 * when it was cut to the limit.
 */
function layOut(section: Section, start: number, end: number, cut?: string): string {
  let markdown = "";
  let previous: SectionBlock | undefined;
  for (const block of section.blocks) {
    const from = Math.max(start, block.first);
    const to = Math.min(end, block.first + block.count);
    if (from >= to) continue;
    let text = cut ?? section.sentences.slice(from, to).join(" ");
    // The "." that made an item a sentence is not the article's: a step reads as written.
    if (block.addedStop && cut === undefined && to === block.first + block.count) text = text.replace(/\.$/, "");
    const line = block.kind === "paragraph" ? markdownLiteral(text) : `${marker(block)} ${markdownLiteral(text)}`;
    const sameGroup =
      previous !== undefined && block.kind !== "paragraph" && previous.kind === block.kind && previous.group === block.group;
    markdown += previous === undefined ? line : `${sameGroup ? "\n" : "\n\n"}${line}`;
    previous = block;
  }
  return markdown;
}

/** Whether a quote opens with a list (it then starts on a line of its own, not after "From “…”: "). */
export function opensWithList(markdown: string): boolean {
  return /^(?:-|\d{1,9}\.) /.test(markdown);
}
