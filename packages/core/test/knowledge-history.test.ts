// Article history (a revision per save, the diff, restore), scheduled publication by the worker's
// task, the knowledge gaps of turns and help searches with their grouping, and visitors' votes.
// Real database, either mode.

import { freezeClockAtWindowStart } from "@parley/testing/clock";
import { messagingAgent, type TestContext } from "@parley/testing/context";
import { createAgentWithKey, createMessagingContext } from "@parley/testing/messaging";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { runTurn } from "../src/conversations/turn/turn.ts";
import { helpArticles } from "../src/help/api.ts";
import { getVisibleArticle } from "../src/help/articles.ts";
import { recordEmptySearch, voteOnAnswer, voteOnArticle } from "../src/help/feedback.ts";
import { ARTICLE_FEEDBACK_PER_MINUTE } from "../src/help/limits.ts";
import { createArticle, getArticle, listArticles, setArticlePublished, updateArticle } from "../src/knowledge/articles/articles.ts";
import { articleRevisionDiff, listArticleRevisions, restoreArticleRevision } from "../src/knowledge/articles/history.ts";
import { publishDueArticles, scheduleArticle } from "../src/knowledge/articles/schedule.ts";
import { gapKey, gapQuestion } from "../src/knowledge/gaps/gap-rows.ts";
import { listKnowledgeGaps } from "../src/knowledge/gaps/gaps-page.ts";
import { loadLanguageDetector } from "../src/knowledge/languages/detection.ts";
import { KNOWLEDGE_GAP_QUESTION_MAX_CHARS } from "../src/knowledge/limits.ts";
import type { AdminScope } from "../src/people/scope.ts";
import { isAppError } from "../src/platform/errors.ts";

const WORKSPACE = "ws-demo";
const ADMIN = "user-admin";
/** The seeded owner as the panel hands them to core. */
const OWNER: AdminScope = { workspaceId: WORKSPACE, userId: ADMIN, role: "owner" };
const clock = new Date("2026-11-28T10:00:00.000Z");
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createMessagingContext({ now: () => clock });
  await loadLanguageDetector();
});
afterAll(async () => {
  await ctx.close();
});

const later = (ms: number) => new Date(clock.getTime() + ms);

async function refusal(promise: Promise<unknown>): Promise<{ code: string; details?: string }> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return { code: error.code, details: error.details };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("article history", () => {
  it("keeps one revision per save, newest first, with who saved it", async () => {
    const article = await createArticle(ctx.db, OWNER, { sourceId: "src-billing", title: "Invoices", content: "Line one\n" }, clock);
    await updateArticle(ctx.db, OWNER, { id: article.id, content: "Line one\nLine two\n" }, later(1000));
    await setArticlePublished(ctx.db, OWNER, { id: article.id, published: true }, later(2000));
    // Publishing an already published article changes nothing and saves no revision.
    await setArticlePublished(ctx.db, OWNER, { id: article.id, published: true }, later(3000));

    const revisions = await listArticleRevisions(ctx.db, WORKSPACE, { articleId: article.id });
    expect(revisions.map((revision) => [revision.published, revision.authorName])).toEqual([
      [true, "Demo admin"],
      [false, "Demo admin"],
      [false, "Demo admin"],
    ]);
    expect(revisions[2]!.createdAt).toEqual(clock);
    const stored = await ctx.db.prisma.articleRevision.findMany({ where: { articleId: article.id }, orderBy: { createdAt: "asc" } });
    expect(stored.map((revision) => revision.content)).toEqual(["Line one\n", "Line one\nLine two\n", "Line one\nLine two\n"]);
  });

  it("diffs a revision against the current text and restores it as a new save", async () => {
    const article = await createArticle(
      ctx.db,
      OWNER,
      { sourceId: "src-billing", title: "Refund times", content: "Cards: 5 days.\n" },
      clock,
    );
    await updateArticle(
      ctx.db,
      OWNER,
      { id: article.id, title: "Refund delays", content: "Cards: 10 days.\nPayPal: 2 days.\n" },
      later(1000),
    );
    const [, first] = await listArticleRevisions(ctx.db, WORKSPACE, { articleId: article.id });

    const diff = await articleRevisionDiff(ctx.db, WORKSPACE, { revisionId: first!.id });
    expect(diff.differs).toBe(true);
    expect(diff.content).toEqual([
      { change: "removed", text: "Cards: 5 days.\n" },
      { change: "added", text: "Cards: 10 days.\nPayPal: 2 days.\n" },
    ]);
    expect(diff.title.filter((part) => part.change !== "same").map((part) => [part.change, part.text])).toEqual([
      ["removed", "times"],
      ["added", "delays"],
    ]);

    await restoreArticleRevision(ctx.db, OWNER, { revisionId: first!.id }, later(2000));
    const restored = await getArticle(ctx.db, WORKSPACE, article.id);
    expect([restored.title, restored.content]).toEqual(["Refund times", "Cards: 5 days.\n"]);
    const revisions = await listArticleRevisions(ctx.db, WORKSPACE, { articleId: article.id });
    expect(revisions).toHaveLength(3);
    expect(revisions[0]!.title).toBe("Refund times");
    // The restore is itself reversible: the edit it undid is still there to restore.
    expect(revisions[1]!.title).toBe("Refund delays");
    expect((await articleRevisionDiff(ctx.db, WORKSPACE, { revisionId: revisions[0]!.id })).differs).toBe(false);
  });

  it("keeps another workspace's revisions out of reach", async () => {
    await ctx.db.prisma.workspace.create({ data: { id: "ws-other", name: "Other" } });
    const article = await createArticle(ctx.db, OWNER, { sourceId: "src-billing", title: "Private", content: "Body" }, clock);
    const [revision] = await listArticleRevisions(ctx.db, WORKSPACE, { articleId: article.id });
    expect(await refusal(listArticleRevisions(ctx.db, "ws-other", { articleId: article.id }))).toEqual({ code: "ARTICLE_NOT_FOUND" });
    expect(await refusal(articleRevisionDiff(ctx.db, "ws-other", { revisionId: revision!.id }))).toEqual({ code: "ARTICLE_NOT_FOUND" });
    expect(
      await refusal(
        restoreArticleRevision(ctx.db, { workspaceId: "ws-other", userId: ADMIN, role: "owner" }, { revisionId: revision!.id }, clock),
      ),
    ).toEqual({
      code: "ARTICLE_NOT_FOUND",
    });
    expect(await ctx.db.prisma.articleRevision.count({ where: { articleId: article.id } })).toBe(1);
  });
});

describe("scheduled publication", () => {
  it("refuses a time in the past and publishes the article once its time has come", async () => {
    const article = await createArticle(ctx.db, OWNER, { sourceId: "src-billing", title: "Launch notes", content: "Soon." }, clock);
    expect(await refusal(scheduleArticle(ctx.db, OWNER, { id: article.id, publishAt: clock.toISOString() }, clock))).toEqual({
      code: "INVALID_REQUEST",
      details: "Choose a time in the future",
    });
    const publishAt = later(60 * 60_000);
    await scheduleArticle(ctx.db, OWNER, { id: article.id, publishAt: publishAt.toISOString() }, clock);
    expect((await getArticle(ctx.db, WORKSPACE, article.id)).publishAt).toEqual(publishAt);

    // Before the time: still a draft, invisible on the help centre.
    expect(await publishDueArticles(ctx.db, later(59 * 60_000))).toBe(0);
    expect(await getVisibleArticle(ctx.db, "demo", article.id)).toBeNull();

    expect(await publishDueArticles(ctx.db, publishAt)).toBe(1);
    const published = await getArticle(ctx.db, WORKSPACE, article.id);
    expect([published.published, published.publishedAt, published.publishAt]).toEqual([true, publishAt, null]);
    expect((await getVisibleArticle(ctx.db, "demo", article.id))?.title).toBe("Launch notes");
    const [revision] = await listArticleRevisions(ctx.db, WORKSPACE, { articleId: article.id });
    expect([revision!.published, revision!.authorName]).toEqual([true, null]);
    // Nothing is due any more.
    expect(await publishDueArticles(ctx.db, later(2 * 60 * 60_000))).toBe(0);
  });

  it("cancels a schedule, and publishing by hand clears it", async () => {
    const article = await createArticle(ctx.db, OWNER, { sourceId: "src-billing", title: "Later", content: "Body" }, clock);
    await scheduleArticle(ctx.db, OWNER, { id: article.id, publishAt: later(60_000).toISOString() }, clock);
    await scheduleArticle(ctx.db, OWNER, { id: article.id, publishAt: null }, clock);
    expect((await getArticle(ctx.db, WORKSPACE, article.id)).publishAt).toBeNull();
    await scheduleArticle(ctx.db, OWNER, { id: article.id, publishAt: later(60_000).toISOString() }, clock);
    await setArticlePublished(ctx.db, OWNER, { id: article.id, published: true }, clock);
    expect((await getArticle(ctx.db, WORKSPACE, article.id)).publishAt).toBeNull();
  });
});

describe("knowledge gaps", () => {
  it("groups questions by their subject words (folded, stop words dropped, stemmed)", () => {
    expect(gapKey("How do I get REFUNDS for PayPal payments?")).toBe(gapKey("paypal payment refund"));
    expect(gapKey("Réinitialiser le mot de passe")).toBe(gapKey("reinitialiser mot passe"));
    expect(gapQuestion(`  ${"a".repeat(KNOWLEDGE_GAP_QUESTION_MAX_CHARS + 50)}  `)).toHaveLength(KNOWLEDGE_GAP_QUESTION_MAX_CHARS);
  });

  it("records turns the agent could not answer, not answered ones nor requests for a person", async () => {
    const agent = await createAgentWithKey(ctx);
    const messaging = messagingAgent({ id: agent.id, workspaceId: WORKSPACE });
    const turn = (message: string) => runTurn(ctx, messaging, { message }, { channel: "api" });
    await turn("Can I pay with seashells on the moon?");
    await turn("How can I request a refund?");
    await turn("I want to talk to a human");

    const gaps = await ctx.db.prisma.knowledgeGap.findMany({ where: { agentId: agent.id }, orderBy: { createdAt: "asc" } });
    // "I want to talk to a human" escalated the conversation: the inbox's work, not a knowledge gap.
    expect(gaps.map((gap) => [gap.kind, gap.question])).toEqual([["unanswered", "Can I pay with seashells on the moon?"]]);
    expect(gaps[0]!.normalized).toBe(gapKey("Can I pay with seashells on the moon?"));
    // Each keeps its conversation, so that erasing the visitor's data takes their words along.
    expect(gaps.every((gap) => gap.conversationId !== null)).toBe(true);
  });

  it("records help searches with no result, within the IP's budget", async () => {
    const agent = await createAgentWithKey(ctx);
    await recordEmptySearch(ctx, { agentId: agent.id, clientIp: "198.51.100.20", query: "  seashell payments  " });
    await recordEmptySearch(ctx, { agentId: agent.id, clientIp: "198.51.100.20", query: "   " });
    const gaps = await ctx.db.prisma.knowledgeGap.findMany({ where: { agentId: agent.id } });
    expect(gaps.map((gap) => [gap.kind, gap.question])).toEqual([["no_search_result", "seashell payments"]]);
  });

  it("records nothing for a search of the JSON route (a read that stores nothing)", async () => {
    const agent = await createAgentWithKey(ctx);
    const empty = await helpArticles(ctx, {
      agentId: agent.id,
      clientIp: "198.51.100.21",
      query: new URLSearchParams({ q: "zebra giraffes on mars" }),
    });
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual({ data: { articles: [] } });
    expect(await ctx.db.prisma.knowledgeGap.count({ where: { agentId: agent.id } })).toBe(0);
  });

  it("lists groups with counts over the last 7 and 30 days, the latest wording first", async () => {
    const agent = await createAgentWithKey(ctx);
    const day = 86_400_000;
    const rows = [
      { question: "Seashell payment?", kind: "unanswered", at: 1 * day },
      { question: "seashells payments", kind: "no_search_result", at: 2 * day },
      { question: "Pay by seashell", kind: "unanswered", at: 10 * day },
      { question: "Payments in seashells please", kind: "handoff", at: 40 * day },
      { question: "Parrot delivery", kind: "unanswered", at: 3 * day },
    ] as const;
    await ctx.db.prisma.knowledgeGap.createMany({
      data: rows.map((row) => ({
        agentId: agent.id,
        kind: row.kind,
        question: row.question,
        normalized: gapKey(row.question),
        createdAt: new Date(clock.getTime() - row.at),
      })),
    });
    const { groups, counts } = await listKnowledgeGaps(ctx.db, WORKSPACE, { agentId: agent.id }, clock);
    expect(groups.map((group) => [group.question, group.last7Days, group.last30Days])).toEqual([
      ["Seashell payment?", 2, 2],
      ["Parrot delivery", 1, 1],
      ["Pay by seashell", 0, 1],
    ]);
    expect(groups[0]!.kinds).toEqual({ unanswered: 1, not_helpful: 0, no_search_result: 1 });
    expect(groups[0]!.lastAskedAt).toEqual(new Date(clock.getTime() - day));
    expect(counts).toEqual({ last7Days: 3, last30Days: 4 });
    expect(await listKnowledgeGaps(ctx.db, "ws-other", { agentId: agent.id }, clock)).toEqual({
      groups: [],
      counts: { last7Days: 0, last30Days: 0 },
    });
  });
});

describe("was this helpful?", () => {
  it("keeps one vote per visitor, article and day, counts the score, and limits each IP", async () => {
    freezeClockAtWindowStart(60);
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const vote = (clientIp: string, helpful: boolean, articleId = "art-reset-password") =>
      voteOnArticle(ctx, { agentId: "demo", articleId, helpful, clientIp });
    await vote("198.51.100.1", true);
    await vote("198.51.100.1", false); // changes that visitor's vote of the day
    await vote("198.51.100.2", true);
    const listed = (await listArticles(ctx.db, WORKSPACE, {})).find((article) => article.id === "art-reset-password");
    expect([listed?.helpful, listed?.votes]).toEqual([1, 2]);

    expect(await refusal(vote("198.51.100.3", true, "art-start-draft"))).toEqual({ code: "NOT_FOUND" });

    // 198.51.100.1 voted twice above, in this minute (the clock stands 1 s into it).
    for (let i = 2; i < ARTICLE_FEEDBACK_PER_MINUTE; i++) await vote("198.51.100.1", true);
    expect((await refusal(vote("198.51.100.1", true))).code).toBe("RATE_LIMITED");
  });

  it("a 'no' under a widget answer scores the articles it linked and is a gap with the question", async () => {
    const agent = await createAgentWithKey(ctx);
    const messaging = messagingAgent({ id: agent.id, workspaceId: WORKSPACE });
    const { conversationId } = await runTurn(ctx, messaging, { message: "How can I request a refund?" }, { channel: "widget" });
    const reply = await ctx.db.prisma.message.findFirstOrThrow({ where: { conversationId, role: "agent" } });
    const linked = (reply.richContent as Array<{ type: string; articles?: Array<{ id: string }> }>)
      .flatMap((item) => item.articles ?? [])
      .map((article) => article.id);
    expect(linked).toContain("art-refunds");

    const vote = { agentId: agent.id, conversationId, messageId: reply.id, helpful: false, clientIp: "198.51.100.30" };
    expect(await voteOnAnswer(ctx, vote)).toEqual({ messageId: reply.id, helpful: false });
    const gaps = await ctx.db.prisma.knowledgeGap.findMany({ where: { agentId: agent.id } });
    expect(gaps.map((gap) => [gap.kind, gap.question])).toEqual([["not_helpful", "How can I request a refund?"]]);
    const votes = await ctx.db.prisma.articleFeedback.findMany({ where: { articleId: { in: linked } } });
    expect(votes.filter((row) => !row.helpful)).toHaveLength(linked.length);

    // Only an agent reply of that conversation.
    const question = await ctx.db.prisma.message.findFirstOrThrow({ where: { conversationId, role: "user" } });
    expect(await refusal(voteOnAnswer(ctx, { ...vote, messageId: question.id }))).toEqual({ code: "NOT_FOUND" });
    expect(await refusal(voteOnAnswer(ctx, { ...vote, agentId: "demo" }))).toEqual({ code: "NOT_FOUND" });
  });
});
