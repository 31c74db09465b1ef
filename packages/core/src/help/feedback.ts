// Visitors' side of the knowledge gaps: "Was this helpful?" on help articles and widget answers,
// and help searches that found nothing. Each vote is per client IP (one per visitor, article and
// UTC day; a later vote the same day replaces the earlier one) and counted against the IP's budget.
import { createHash } from "node:crypto";
import { type Database, Prisma } from "@parley/db";
import { z } from "zod";
import { knowledgeGapRow } from "../knowledge/gaps/gap-rows.ts";
import { loadLanguageDetector } from "../knowledge/languages/detection.ts";
import { articleIsVisibleSql } from "../knowledge/visibility.ts";
import { limitAddress } from "../platform/client-ip.ts";
import type { PlatformContext } from "../platform/context.ts";
import { AppError } from "../platform/errors.ts";
import { enforceRateLimit } from "../platform/ratelimit/index.ts";
import { ARTICLE_FEEDBACK_PER_MINUTE } from "./limits.ts";

const FEEDBACK_POLICY = { name: "article-feedback", limit: ARTICLE_FEEDBACK_PER_MINUTE, windowSeconds: 60 };

export const articleFeedbackInput = z.object({
  agentId: z.string().min(1).max(200),
  articleId: z.string().min(1).max(200),
  helpful: z.boolean(),
});

/** Who voted, without keeping the address: a hash of the agent, the IP and the day. */
function voterHash(agentId: string, clientIp: string, now: Date): string {
  const day = now.toISOString().slice(0, 10);
  return createHash("sha256").update(`${agentId}\n${clientIp}\n${day}`).digest("hex");
}

async function isVisible(db: Database, agentId: string, articleId: string): Promise<boolean> {
  const rows = await db.rows<{ id: string }>(
    Prisma.sql`SELECT a."id" FROM "Article" a WHERE a."id" = ${articleId} AND ${articleIsVisibleSql("a", agentId)}`,
  );
  return rows.length > 0;
}

/**
 * A visitor's vote on an article the agent's help centre shows (404 `Not found` otherwise; 429
 * past ARTICLE_FEEDBACK_PER_MINUTE from one IP).
 */
export async function voteOnArticle(
  ctx: PlatformContext,
  request: z.infer<typeof articleFeedbackInput> & { clientIp: string },
): Promise<{ helpful: boolean }> {
  await enforceRateLimit(ctx.limiters.configured(FEEDBACK_POLICY), limitAddress(request.clientIp));
  if (!(await isVisible(ctx.db, request.agentId, request.articleId))) throw new AppError("NOT_FOUND");
  const now = ctx.now();
  const hash = voterHash(request.agentId, request.clientIp, now);
  await ctx.db.prisma.articleFeedback.upsert({
    where: { articleId_voterHash: { articleId: request.articleId, voterHash: hash } },
    create: { articleId: request.articleId, voterHash: hash, helpful: request.helpful, createdAt: now },
    update: { helpful: request.helpful, createdAt: now },
    select: { id: true },
  });
  return { helpful: request.helpful };
}

/**
 * A help search that found nothing is a gap. Counted against the same per-IP budget as votes; past
 * it the search is simply not recorded (the visitor still gets the page).
 */
export async function recordEmptySearch(
  ctx: PlatformContext,
  request: { agentId: string; clientIp: string; query: string },
): Promise<void> {
  const query = request.query.trim();
  if (!query) return;
  const allowed = await ctx.limiters.configured(FEEDBACK_POLICY).limit(`search:${limitAddress(request.clientIp)}`);
  if (!allowed.success) return;
  await loadLanguageDetector();
  await ctx.db.prisma.knowledgeGap.create({
    data: knowledgeGapRow(request.agentId, "no_search_result", query, ctx.now()),
    select: { id: true },
  });
}

/**
 * A visitor's answer to "Was this helpful?" under an agent reply in their own conversation: a vote
 * on each article the reply linked, and a "no" is a gap with the question the reply answered.
 * 404 `Not found` for a message that is not an agent reply of this conversation.
 */
export async function voteOnAnswer(
  ctx: PlatformContext,
  request: { agentId: string; conversationId: string; messageId: string; helpful: boolean; clientIp: string },
): Promise<{ messageId: string; helpful: boolean }> {
  await enforceRateLimit(ctx.limiters.configured(FEEDBACK_POLICY), limitAddress(request.clientIp));
  const reply = await ctx.db.prisma.message.findFirst({
    where: { id: request.messageId, conversationId: request.conversationId, role: "agent", conversation: { agentId: request.agentId } },
    select: { sequence: true, richContent: true },
  });
  if (!reply) throw new AppError("NOT_FOUND");
  const now = ctx.now();
  const hash = voterHash(request.agentId, request.clientIp, now);
  const question = request.helpful
    ? null
    : await ctx.db.prisma.message.findFirst({
        where: { conversationId: request.conversationId, role: "user", sequence: { lt: reply.sequence } },
        orderBy: { sequence: "desc" },
        select: { text: true },
      });
  if (question) await loadLanguageDetector();
  await ctx.db.prisma.$transaction(async (tx) => {
    for (const articleId of linkedArticleIds(reply.richContent)) {
      // Articles deleted since the reply are skipped (nothing to score).
      const exists = await tx.article.findUnique({ where: { id: articleId }, select: { id: true } });
      if (!exists) continue;
      await tx.articleFeedback.upsert({
        where: { articleId_voterHash: { articleId, voterHash: hash } },
        create: { articleId, voterHash: hash, helpful: request.helpful, createdAt: now },
        update: { helpful: request.helpful, createdAt: now },
        select: { id: true },
      });
    }
    if (question) {
      await tx.knowledgeGap.create({
        data: knowledgeGapRow(request.agentId, "not_helpful", question.text, now, request.conversationId),
        select: { id: true },
      });
    }
  });
  return { messageId: request.messageId, helpful: request.helpful };
}

/** The article ids an agent reply linked (its `articles` rich content), at most a handful. */
function linkedArticleIds(richContent: unknown): string[] {
  if (!Array.isArray(richContent)) return [];
  const ids = new Set<string>();
  for (const item of richContent as Array<{ type?: unknown; articles?: unknown }>) {
    if (item?.type !== "articles" || !Array.isArray(item.articles)) continue;
    for (const article of item.articles as Array<{ id?: unknown }>) if (typeof article?.id === "string") ids.add(article.id);
  }
  return [...ids].slice(0, 10);
}
