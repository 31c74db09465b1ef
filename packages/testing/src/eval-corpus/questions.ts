// The labelled questions of the evaluation: dev.json and test.json (eval/corpora/<name>/questions), arrays of
// Question. A question with no answers is unanswerable (its type says which kind).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Language } from "./corpus.ts";

export const ANSWERABLE_TYPES = ["paraphrase", "keyword", "typo", "long", "short", "follow-up", "multilingual", "multi-article"] as const;
export const UNANSWERABLE_TYPES = ["near-topic", "off-topic", "small-talk"] as const;
export type QuestionType = (typeof ANSWERABLE_TYPES)[number] | (typeof UNANSWERABLE_TYPES)[number];

export const SPLITS = ["dev", "test"] as const;
export type Split = (typeof SPLITS)[number];

export interface Answer {
  /** An article id that answers the question. */
  article: string;
  /** The exact heading of the section that answers it. */
  heading: string;
  /** A short verbatim excerpt of that section that an answer must contain or overlap. */
  excerpt: string;
}

export interface Question {
  id: string;
  /** What the visitor sends; scored. */
  question: string;
  /** Earlier messages of the same conversation, sent first and not scored (follow-ups). */
  previous?: string[];
  language: Language;
  type: QuestionType;
  /** Best first; empty when nothing in the corpus answers the question. */
  answers: Answer[];
}

export interface SplitQuestion extends Question {
  split: Split;
}

/** `dir`: the questions folder (eval/corpora/<name>/questions). */
export function loadQuestions(dir: string, splits: readonly Split[] = SPLITS): SplitQuestion[] {
  return splits.flatMap((split) =>
    (JSON.parse(readFileSync(path.join(dir, `${split}.json`), "utf8")) as Question[]).map((question) => ({ ...question, split })),
  );
}

export function isAnswerable(question: Question): boolean {
  return question.answers.length > 0;
}

/**
 * `count` questions spread evenly over `questions` (every k-th, in file order), so a small slice
 * keeps the mix of types, languages and topics. The same input always gives the same slice.
 */
export function sliceOf<T>(questions: T[], count: number): T[] {
  if (count >= questions.length) return questions;
  return Array.from({ length: count }, (_, i) => questions[Math.floor((i * questions.length) / count)]!);
}
