// The rows of one corpus: the engines through the real turn path, the peers, and the help
// centre's search, each over the same questions. run.ts prints and writes what these return.
import { runTurn } from "@parley/core/conversations";
import { markdownToPlainText, searchHelpArticles } from "@parley/core/knowledge";
import { HELP_QUERY_MAX_CHARS } from "@parley/core/knowledge/limits";
import type { TestContext } from "@parley/testing/context";
import { type Article, type EngineName, evalAgent, isAnswerable, type SplitQuestion } from "@parley/testing/eval-corpus";
import { thresholdForRate } from "./calibrate.ts";
import { judge, type Outcome, readReply, summarize } from "./metrics.ts";
import { indexedTexts, type PeerName, peerSearch } from "./peers.ts";

/** Every question through runTurn, as the HTTP API runs it; follow-ups after their earlier turns. */
export async function engineOutcomes(ctx: TestContext, engine: EngineName, questions: SplitQuestion[]): Promise<Outcome[]> {
  const agent = evalAgent(engine);
  const outcomes: Outcome[] = [];
  for (const question of questions) {
    let conversationId: string | undefined;
    for (const message of question.previous ?? []) {
      conversationId = (await runTurn(ctx, agent, { message, conversationId }, { channel: "api" })).conversationId;
    }
    const start = performance.now();
    const response = await runTurn(ctx, agent, { message: question.question, conversationId }, { channel: "api" });
    outcomes.push(judge(question, readReply(response), performance.now() - start));
  }
  return outcomes;
}

export interface PeerRun {
  outcomes: Outcome[];
  threshold: number;
  /**
   * Its top-1 over all the questions at a threshold chosen on all of them to decline exactly as
   * many unanswerable questions as the knowledge agent did: the comparison at the same
   * correct-"I don't know" rate, the best this peer could do there.
   */
  top1AtSameRate: number | null;
}

/**
 * A peer over the same questions (a follow-up searched with its earlier messages, as the peer
 * has no conversation), abstaining under the threshold that matches `knowledge`'s correct-"I
 * don't know" rate on the dev split. Peers quote nothing, so their passage figure is not kept.
 */
export function peerOutcomes(name: PeerName, articles: Article[], questions: SplitQuestion[], knowledge: Outcome[]): PeerRun {
  const search = peerSearch(name, indexedTexts(articles, markdownToPlainText));
  const ranked = questions.map((question) => {
    const start = performance.now();
    const hits = search([...(question.previous ?? []), question.question].join(" "));
    return { question, hits, ms: performance.now() - start };
  });
  const devUnanswerable = ranked.filter(({ question }) => question.split === "dev" && !isAnswerable(question));
  const devRate = summarize(knowledge.filter((outcome) => (outcome.question as SplitQuestion).split === "dev")).dont_know ?? 0;
  const threshold = thresholdForRate(
    devUnanswerable.map(({ hits }) => hits[0]?.score ?? 0),
    devRate,
  );
  const outcomesAt = (cut: number) =>
    ranked.map(({ question, hits, ms }) => {
      const abstained = (hits[0]?.score ?? 0) < cut || hits.length === 0;
      const outcome = judge(question, { text: "", cited: hits.slice(0, 5).map((hit) => hit.id), abstained }, ms);
      return { ...outcome, passage: false };
    });
  const sameRate = thresholdForRate(
    ranked.filter(({ question }) => !isAnswerable(question)).map(({ hits }) => hits[0]?.score ?? 0),
    summarize(knowledge).dont_know ?? 0,
  );
  return { outcomes: outcomesAt(threshold), threshold, top1AtSameRate: summarize(outcomesAt(sameRate)).top1 };
}

/** How far the help centre's search box takes a visitor: its first and first five results. */
export interface HelpSearchFigures {
  answerable: number;
  top1: number | null;
  top5: number | null;
}

export async function helpSearchFigures(ctx: TestContext, questions: SplitQuestion[]): Promise<HelpSearchFigures> {
  const agentId = evalAgent("knowledge").id;
  let top1 = 0;
  let top5 = 0;
  const answerable = questions.filter(isAnswerable);
  for (const question of answerable) {
    // A search box has no conversation: a follow-up is searched with its earlier messages, as the
    // peers search it. It cuts a longer query at the route's longest `q`, as its maxlength would.
    const typed = [...(question.previous ?? []), question.question].join(" ");
    const query = [...typed].slice(0, HELP_QUERY_MAX_CHARS).join("");
    const hits = await searchHelpArticles(ctx.db, agentId, query, { limit: 5 });
    const acceptable = new Set(question.answers.map((answer) => answer.article));
    if (hits[0] && acceptable.has(hits[0].id)) top1++;
    if (hits.some((hit) => acceptable.has(hit.id))) top5++;
  }
  const rate = (count: number) => (answerable.length === 0 ? null : Math.round((count / answerable.length) * 10_000) / 10_000);
  return { answerable: answerable.length, top1: rate(top1), top5: rate(top5) };
}
