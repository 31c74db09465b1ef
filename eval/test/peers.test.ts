// A peer row's two "I don't know" thresholds: the dev split's (its row) and the one at exactly the
// knowledge agent's rate over all the questions (top1AtSameRate, what the agent is compared with).
import type { Article, SplitQuestion } from "@parley/testing/eval-corpus";
import { describe, expect, it } from "vitest";
import { peerOutcomes } from "../src/evaluate.ts";
import { judge, summarize } from "../src/metrics.ts";

const ARTICLES: Article[] = [
  {
    id: "billing",
    collection: "help",
    title: "Invoices and billing",
    language: "en",
    content: "Download every invoice as a PDF from the billing page.",
  },
  {
    id: "password",
    collection: "help",
    title: "Reset your password",
    language: "en",
    content: "Use the reset link to choose a new password.",
  },
  { id: "printer", collection: "help", title: "Printer setup", language: "en", content: "Connect the office printer over wifi." },
];

function question(id: string, split: "dev" | "test", text: string, article?: string): SplitQuestion {
  const answers = article ? [{ article, heading: "", excerpt: "" }] : [];
  return { id, split, question: text, language: "en", type: article ? "keyword" : "near-topic", answers };
}

const QUESTIONS = [
  question("strong", "test", "invoices and billing", "billing"),
  question("weak", "test", "choose link", "password"),
  question("nothing", "dev", "bitcoin mining"),
  question("printer", "test", "office wifi"),
];

describe("peer rows", () => {
  it("give the top-1 at the dev split's threshold, and at the agent's rate over all questions", () => {
    // The agent declined both unanswerable questions: 100% on dev and on all.
    const knowledge = QUESTIONS.map((q) => judge(q, { text: "", cited: [], abstained: q.answers.length === 0 }, 0));
    expect(summarize(knowledge).dont_know).toBe(1);
    const run = peerOutcomes("lunr", ARTICLES, QUESTIONS, knowledge);
    // The dev split's one unanswerable question matches nothing: the peer answers everything else,
    // the printer question too.
    expect(summarize(run.outcomes)).toMatchObject({ top1: 1, dont_know: 0.5 });
    // Declining the printer question as well takes a threshold above its score, which the weak match is under.
    expect(run.top1AtSameRate).toBe(0.5);
  });
});
