// The passage of an article the knowledge agent quotes for a question.
import { KNOWLEDGE_ANSWER_MAX_CHARS } from "../limits.ts";
import { keywords, type Section, sectionsOf, wordsIn } from "./text.ts";

// What kind of answer a question wants, and the headings that give it: "how do I ..." wants steps
// ("How to request a refund"), "when/how long ..." wants timing ("When will I get my money?").
const QUESTION_KINDS: ReadonlyArray<{ question: RegExp; heading: RegExp }> = [
  { question: /\bhow\s+(?:do|can|could|should|would|to)\b/i, heading: /\bhow\b/i },
  { question: /\b(?:when|how\s+long|how\s+soon)\b/i, heading: /\b(?:when|how\s+long)\b/i },
];
const QUESTION_KIND_BONUS = 2.5;

/**
 * The best passage of an article for a question, in whole sentences up to
 * KNOWLEDGE_ANSWER_MAX_CHARS. The section is chosen by the question's words in its heading (double)
 * and text, plus a bonus when its heading is the kind of answer asked for; earlier sections win
 * ties. A section chosen for its heading is quoted from its start (steps stay complete); otherwise
 * from its sentence with most of the words.
 */
export function bestPassage(markdown: string, question: string): string {
  const words = keywords(question);
  const kinds = QUESTION_KINDS.filter((kind) => kind.question.test(question));
  let best: { section: Section; headingScore: number } | undefined;
  let bestScore = -1;
  for (const section of sectionsOf(markdown)) {
    const headingWords = wordsIn(section.heading, words);
    const bodyWords = wordsIn(section.sentences.join(" "), words);
    // The kind of heading counts only for a section about the question at all.
    const kindBonus =
      headingWords + bodyWords > 0 ? kinds.filter((kind) => kind.heading.test(section.heading)).length * QUESTION_KIND_BONUS : 0;
    const headingScore = 2 * headingWords + kindBonus;
    const score = headingScore + bodyWords;
    if (score > bestScore) {
      best = { section, headingScore };
      bestScore = score;
    }
  }
  if (!best) return "";

  const { sentences } = best.section;
  let start = 0;
  if (best.headingScore === 0) {
    let most = 0;
    sentences.forEach((sentence, index) => {
      const count = wordsIn(sentence, words);
      if (count > most) {
        most = count;
        start = index;
      }
    });
  }
  const chosen: string[] = [];
  let length = 0;
  for (const sentence of sentences.slice(start)) {
    if (chosen.length > 0 && length + sentence.length + 1 > KNOWLEDGE_ANSWER_MAX_CHARS) break;
    chosen.push(sentence);
    length += sentence.length + 1;
  }
  const passage = chosen.join(" ");
  return passage.length > KNOWLEDGE_ANSWER_MAX_CHARS ? `${passage.slice(0, KNOWLEDGE_ANSWER_MAX_CHARS - 1).trimEnd()}…` : passage;
}
