// Deleting an article or a source, each in one transaction. The database's cascades take what
// belongs to the row: a source's articles; an article's embedding states and passage vectors (a
// trigger records each removed vector, so every instance's in-process index drops it). The help centre and the knowledge search read the tables on every request, so a
// deleted article answers 404 and leaves the search at once.
import type { Database, Prisma } from "@parley/db";
import { z } from "zod";
import { recordAudit } from "../people/audit.ts";
import { PEOPLE_ERRORS } from "../people/errors.ts";
import { type AdminScope, rowId } from "../people/scope.ts";
import { AppError } from "../platform/errors.ts";
import { articlePublication, recordWebhookEvents } from "../webhooks/events.ts";
import { KNOWLEDGE_ERRORS } from "./errors.ts";

export const deleteByIdInput = z.object({ id: rowId });

/** A published article's deletion tells webhook receivers it is unpublished, as unpublishing does. */
async function announceRemoval(tx: Prisma.TransactionClient, workspaceId: string, articleIds: readonly string[], now: Date) {
  const articles = await tx.article.findMany({
    where: { id: { in: [...articleIds] }, published: true },
    select: { id: true, sourceId: true, title: true, publishedAt: true, source: { select: { agents: { select: { agentId: true } } } } },
  });
  for (const article of articles) {
    const agentIds = article.source.agents.map((link) => link.agentId).sort();
    const ref = { id: article.id, sourceId: article.sourceId, title: article.title, publishedAt: article.publishedAt, agentIds };
    await recordWebhookEvents(tx, { workspaceId, agentIds }, [articlePublication(ref, false)], now);
  }
}

export async function deleteArticle(db: Database, scope: AdminScope, id: string, now: Date): Promise<{ ok: true }> {
  await db.prisma.$transaction(async (tx) => {
    const article = await tx.article.findFirst({
      where: { id, source: { workspaceId: scope.workspaceId } },
      select: { id: true, title: true },
    });
    if (!article) throw new AppError(KNOWLEDGE_ERRORS.ARTICLE_NOT_FOUND);
    await announceRemoval(tx, scope.workspaceId, [id], now);
    await tx.article.delete({ where: { id } });
    await recordAudit(tx, scope, { action: "article.deleted", targetType: "article", targetId: id, targetLabel: article.title });
  });
  return { ok: true };
}

/** Deletes the source with its articles; agents linked to it simply lose it. Returns the articles deleted. */
export async function deleteSource(db: Database, scope: AdminScope, id: string, now: Date): Promise<{ articles: number }> {
  return db.prisma.$transaction(async (tx) => {
    const source = await tx.source.findFirst({ where: { id, workspaceId: scope.workspaceId }, select: { id: true, name: true } });
    if (!source) throw new AppError(PEOPLE_ERRORS.SOURCE_NOT_FOUND);
    const articles = await tx.article.findMany({ where: { sourceId: id }, select: { id: true } });
    await announceRemoval(
      tx,
      scope.workspaceId,
      articles.map((article) => article.id),
      now,
    );
    await tx.source.delete({ where: { id } });
    await recordAudit(tx, scope, {
      action: "source.deleted",
      targetType: "source",
      targetId: id,
      targetLabel: source.name,
      detail: { articles: articles.length },
    });
    return { articles: articles.length };
  });
}
