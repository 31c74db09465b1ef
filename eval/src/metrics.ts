// How one reply is judged and how judged replies add up. The rules, in one place:
//
// - Cited articles: the ids of the reply's first `articles` rich-content item, in order (the
//   engine's ranking: best first).
// - Abstained: the reply cites no article, or requests a handoff, or says it does not know (a
//   first-person "I don't know / couldn't find" phrase in en, es, fr, de or pt). Greetings and
//   small talk answered without articles count as abstaining, which is what they should do.
// - top1 / top3 (answerable): the reply did not abstain and an acceptable article is the first /
//   among the first three cited.
// - passage (answerable): the reply did not abstain and, for some labelled answer, at least
//   PASSAGE_MIN_OVERLAP of the excerpt's distinct bigrams (pairs of consecutive tokens, see
//   text.ts) occur in the reply. A reply containing the excerpt scores 1; one that condenses it
//   keeps most of its pairs; one quoting another paragraph on the same subject shares few.
// - dont_know (unanswerable): the reply abstained.
// - wrong (all questions): the reply did not abstain and either the question is unanswerable or
//   its first cited article is not acceptable: a confident answer from the wrong article.
// - Latency: wall time of the scored turn (earlier turns of a follow-up are not timed).

import { isAnswerable, type Question } from "@parley/testing/eval-corpus";
import { bigrams, tokens } from "./text.ts";

export const PASSAGE_MIN_OVERLAP = 0.5;

/** What the evaluation reads from a turn's response (spec fields only). */
export interface TurnResponse {
  reply: string;
  richContent: ReadonlyArray<{ type: string; articles?: ReadonlyArray<{ id: string }> }>;
  handoffRequested: boolean;
}

export interface ReadReply {
  text: string;
  cited: string[];
  abstained: boolean;
}

// Normalised with tokens() before matching (no accents, lower case, apostrophes split words).
const DONT_KNOW_PHRASES = [
  /\bi (?:don t|do not|didn t) know\b/,
  /\bi (?:couldn t|could not|can t|cannot|wasn t able to|was unable to) find\b/,
  /\b(?:no lo se|no se la respuesta|no conozco la respuesta)\b/, // "no lo sé" ("no se" alone is "is not")
  /\bno (?:he encontrado|encontre|pude encontrar|puedo encontrar)\b/,
  /\bje ne (?:sais|trouve) pas\b/,
  /\bje n ai pas trouve\b/,
  /\b(?:ich wei(?:ss|ß) (?:es |das )?|wei(?:ss|ß) ich (?:es |das )?(?:leider )?)nicht\b/,
  /\b(?:konnte|kann) ich (?:das |dazu |es )?nichts? finden\b/,
  /\bnao (?:sei|encontrei|consegui encontrar)\b/,
];

export function saysDontKnow(text: string): boolean {
  const normalised = tokens(text).join(" ");
  return DONT_KNOW_PHRASES.some((phrase) => phrase.test(normalised));
}

export function readReply(response: TurnResponse): ReadReply {
  const articles = response.richContent.find((item) => item.type === "articles")?.articles ?? [];
  const cited = articles.map((article) => article.id);
  const abstained = cited.length === 0 || response.handoffRequested || saysDontKnow(response.reply);
  return { text: response.reply, cited, abstained };
}

/** The share (0..1) of the excerpt's distinct bigrams found in the reply. */
export function passageOverlap(reply: string, excerpt: string): number {
  const wanted = bigrams(tokens(excerpt));
  if (wanted.size === 0) return 0;
  const found = bigrams(tokens(reply));
  let shared = 0;
  for (const pair of wanted) if (found.has(pair)) shared++;
  return shared / wanted.size;
}

export interface Outcome {
  question: Question;
  reply: ReadReply;
  ms: number;
  top1: boolean;
  top3: boolean;
  passage: boolean;
  dontKnow: boolean;
  wrong: boolean;
}

export function judge(question: Question, reply: ReadReply, ms: number): Outcome {
  const answered = !reply.abstained;
  if (!isAnswerable(question)) {
    return { question, reply, ms, top1: false, top3: false, passage: false, dontKnow: !answered, wrong: answered };
  }
  const acceptable = new Set(question.answers.map((answer) => answer.article));
  const top1 = answered && acceptable.has(reply.cited[0]!);
  return {
    question,
    reply,
    ms,
    top1,
    top3: answered && reply.cited.slice(0, 3).some((id) => acceptable.has(id)),
    passage: answered && question.answers.some((answer) => passageOverlap(reply.text, answer.excerpt) >= PASSAGE_MIN_OVERLAP),
    dontKnow: false,
    wrong: answered && !top1,
  };
}

/** The figures of a group of outcomes; a rate is null when its group is empty. */
export interface Figures {
  questions: number;
  answerable: number;
  unanswerable: number;
  top1: number | null;
  top3: number | null;
  passage: number | null;
  dont_know: number | null;
  wrong: number | null;
  p50_ms: number | null;
  p99_ms: number | null;
}

export const RATES = ["top1", "top3", "passage", "dont_know", "wrong"] as const;

export function summarize(outcomes: Outcome[]): Figures {
  const answerable = outcomes.filter((outcome) => isAnswerable(outcome.question));
  const unanswerable = outcomes.filter((outcome) => !isAnswerable(outcome.question));
  const rate = (group: Outcome[], hit: (outcome: Outcome) => boolean) =>
    group.length === 0 ? null : round(group.filter(hit).length / group.length);
  const latencies = outcomes.map((outcome) => outcome.ms);
  return {
    questions: outcomes.length,
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    top1: rate(answerable, (outcome) => outcome.top1),
    top3: rate(answerable, (outcome) => outcome.top3),
    passage: rate(answerable, (outcome) => outcome.passage),
    dont_know: rate(unanswerable, (outcome) => outcome.dontKnow),
    wrong: rate(outcomes, (outcome) => outcome.wrong),
    p50_ms: percentile(latencies, 50),
    p99_ms: percentile(latencies, 99),
  };
}

/** Nearest-rank percentile, rounded to 0.1 ms; null for no values. */
export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return Math.round(sorted[rank - 1]! * 10) / 10;
}

function round(rate: number): number {
  return Math.round(rate * 10_000) / 10_000;
}
