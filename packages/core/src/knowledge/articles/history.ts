// An article's history: every save (create, edit, publish, unpublish, restore, the scheduled
// publication) writes one ArticleRevision in the save's transaction. The editor lists them, shows
// a revision's difference from the current text, and restores one (itself a save, so reversible).
import type { Database, Prisma } from "@parley/db";
import { diffLines, diffWordsWithSpace } from "diff";
import { z } from "zod";
import { recordAudit } from "../../people/audit.ts";
import { type AdminScope, rowId } from "../../people/scope.ts";
import { publicName } from "../../people/team.ts";
import { AppError } from "../../platform/errors.ts";
import { ARTICLE_CONTENT_MAX_CHARS, ARTICLE_TITLE_MAX_CHARS } from "../../platform/limits.ts";
import { KNOWLEDGE_ERRORS } from "../errors.ts";
import { detectArticleLanguage } from "../languages/detected.ts";
import { ARTICLE_REVISIONS_PER_LIST } from "../limits.ts";

export const articleRevisionsInput = z.object({ articleId: rowId });
export const articleRevisionInput = z.object({ revisionId: rowId });

/** Writes the article's current title, content and state as a revision by `authorId` (null: the system). */
export async function recordRevision(tx: Prisma.TransactionClient, articleId: string, authorId: string | null, now: Date): Promise<void> {
  const article = await tx.article.findUniqueOrThrow({ where: { id: articleId }, select: { title: true, content: true, published: true } });
  await tx.articleRevision.create({ data: { articleId, ...article, authorId, createdAt: now } });
}

export interface ArticleRevisionSummary {
  id: string;
  title: string;
  published: boolean;
  createdAt: Date;
  authorName: string | null;
}

export async function listArticleRevisions(
  db: Database,
  workspaceId: string,
  input: z.infer<typeof articleRevisionsInput>,
): Promise<ArticleRevisionSummary[]> {
  const article = await db.prisma.article.findFirst({ where: { id: input.articleId, source: { workspaceId } }, select: { id: true } });
  if (!article) throw new AppError(KNOWLEDGE_ERRORS.ARTICLE_NOT_FOUND);
  const rows = await db.prisma.articleRevision.findMany({
    where: { articleId: article.id },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: ARTICLE_REVISIONS_PER_LIST,
    select: { id: true, title: true, published: true, createdAt: true, author: { select: { name: true } } },
  });
  return rows.map(({ author, ...row }) => ({ ...row, authorName: author ? publicName(author) : null }));
}

/** One stretch of a diff: text only in the revision (removed), only in the current article (added), or in both. */
export interface DiffPart {
  change: "added" | "removed" | "same";
  text: string;
}

export interface ArticleRevisionDiff {
  revisionId: string;
  articleId: string;
  createdAt: Date;
  /** From the revision's title to the current one (words). */
  title: DiffPart[];
  /** From the revision's content to the current one (lines). */
  content: DiffPart[];
  /** Whether restoring would change anything. */
  differs: boolean;
}

async function findRevision(db: Database | Prisma.TransactionClient, workspaceId: string, revisionId: string) {
  const client = "prisma" in db ? db.prisma : db;
  const revision = await client.articleRevision.findFirst({
    where: { id: revisionId, article: { source: { workspaceId } } },
    select: {
      id: true,
      articleId: true,
      title: true,
      content: true,
      createdAt: true,
      article: { select: { title: true, content: true } },
    },
  });
  // A revision of another workspace (or none) is as missing as its article.
  if (!revision) throw new AppError(KNOWLEDGE_ERRORS.ARTICLE_NOT_FOUND);
  return revision;
}

function partsOf(changes: Array<{ value: string; added?: boolean; removed?: boolean }>): DiffPart[] {
  return changes.map((change) => ({ change: change.added ? "added" : change.removed ? "removed" : "same", text: change.value }));
}

/** What changed between a revision and the article as it is now. */
export async function articleRevisionDiff(
  db: Database,
  workspaceId: string,
  input: z.infer<typeof articleRevisionInput>,
): Promise<ArticleRevisionDiff> {
  const revision = await findRevision(db, workspaceId, input.revisionId);
  const { article } = revision;
  return {
    revisionId: revision.id,
    articleId: revision.articleId,
    createdAt: revision.createdAt,
    title: partsOf(diffWordsWithSpace(revision.title, article.title)),
    content: partsOf(diffLines(revision.content, article.content)),
    differs: revision.title !== article.title || revision.content !== article.content,
  };
}

/**
 * Puts a revision's title and content back as a new save (a new revision, so a restore can be
 * undone by restoring the one before it). Whether the article is published does not change.
 */
export async function restoreArticleRevision(
  db: Database,
  scope: AdminScope,
  input: z.infer<typeof articleRevisionInput>,
  now: Date,
): Promise<{ articleId: string }> {
  return db.prisma.$transaction(async (tx) => {
    const revision = await findRevision(tx, scope.workspaceId, input.revisionId);
    // A version saved under an older, larger limit is refused rather than cut.
    if (revision.title.length > ARTICLE_TITLE_MAX_CHARS || revision.content.length > ARTICLE_CONTENT_MAX_CHARS)
      throw new AppError(KNOWLEDGE_ERRORS.ARTICLE_REVISION_TOO_LONG);
    await tx.article.update({
      where: { id: revision.articleId },
      data: { title: revision.title, content: revision.content, detectedLanguage: await detectArticleLanguage(revision) },
    });
    await recordRevision(tx, revision.articleId, scope.userId, now);
    await recordAudit(tx, scope, {
      action: "article.restored",
      targetType: "article",
      targetId: revision.articleId,
      targetLabel: revision.title,
      detail: { revision: input.revisionId },
    });
    return { articleId: revision.articleId };
  });
}
