// Knowledge-base articles of a workspace (through their source). What visitors see of them is
// decided elsewhere, by the one visibility rule (published, active, linked source, active agent).
import { type Database, Prisma } from "@parley/db";
import { z } from "zod";
import { type AuditEntry, recordAudit } from "../../people/audit.ts";
import { type AdminScope, assertSourceInWorkspace, rowId } from "../../people/scope.ts";
import { AppError } from "../../platform/errors.ts";
import { ARTICLE_CONTENT_MAX_CHARS, ARTICLE_TITLE_MAX_CHARS, ARTICLES_PER_SOURCE_MAX } from "../../platform/limits.ts";
import { renderArticleHtml } from "../../platform/markdown.ts";
import { articlePublication, recordWebhookEvents } from "../../webhooks/events.ts";
import { KNOWLEDGE_ERRORS } from "../errors.ts";
import { articleScores } from "../gaps/gaps-page.ts";
import { LANGUAGE_CODES } from "../languages/codes.ts";
import { detectArticleLanguage, recordDetectedLanguage } from "../languages/detected.ts";
import { HELP_QUERY_MAX_CHARS, PANEL_ARTICLES_MAX_PER_LIST } from "../limits.ts";
import { recordRevision } from "./history.ts";
import { articleSlugInput, freeArticleSlug, isSlugConflict, slugFromTitle } from "./slugs.ts";
import { assertTranslationLink, translationOfInput } from "./translations.ts";

/** The editor's source: a choice the person must make (an id, like rowId). */
const sourceChoice = z.string().trim().min(1, "Choose a source").max(200);
const titleInput = z.string().trim().min(1, "Enter a title").max(ARTICLE_TITLE_MAX_CHARS);
const contentInput = z
  .string()
  .max(ARTICLE_CONTENT_MAX_CHARS)
  .refine((value) => value.trim().length > 0, "Write some content");

export const listArticlesInput = z
  .object({
    sourceId: rowId.optional(),
    query: z.string().trim().max(HELP_QUERY_MAX_CHARS).optional(),
  })
  .default({});
export const articleIdInput = z.object({ id: rowId });
/** The article's language; null: detected from its text. */
const languageInput = z.enum(LANGUAGE_CODES, { message: "Choose one of the languages listed" }).nullable();
export const createArticleInput = z.object({
  sourceId: sourceChoice,
  title: titleInput,
  content: contentInput,
  language: languageInput.optional(),
  /** The article this one translates; null or absent: an original. */
  translationOfId: translationOfInput.optional(),
  /** Generated from the title when absent. */
  slug: articleSlugInput.optional(),
  published: z.boolean().optional(),
});
export const updateArticleInput = z.object({
  id: rowId,
  title: titleInput.optional(),
  content: contentInput.optional(),
  slug: articleSlugInput.optional(),
  sourceId: sourceChoice.optional(),
  language: languageInput.optional(),
  translationOfId: translationOfInput.optional(),
});
/** What the editor shows while the admin types: any draft, up to an article's size (empty included). */
export const previewArticleInput = z.object({ content: z.string().max(ARTICLE_CONTENT_MAX_CHARS) });
export const setArticlePublishedInput = z.object({ id: rowId, published: z.boolean() });
export const setArticleActiveInput = z.object({ id: rowId, active: z.boolean() });

const summarySelect = {
  id: true,
  sourceId: true,
  title: true,
  slug: true,
  language: true,
  translationOfId: true,
  published: true,
  active: true,
  updatedAt: true,
  /** Help-centre views (counted by the help centre, stored in batches). */
  viewCount: true,
  source: { select: { name: true, active: true } },
} satisfies Prisma.ArticleSelect;

const detailSelect = {
  ...summarySelect,
  content: true,
  detectedLanguage: true,
  createdAt: true,
  publishedAt: true,
  publishAt: true,
  source: { select: { name: true, active: true, agents: { select: { agentId: true }, orderBy: { createdAt: "asc" } } } },
  translationOf: { select: { id: true, title: true, language: true } },
  translations: { select: { id: true, title: true, language: true }, orderBy: [{ title: "asc" }, { id: "asc" }] },
} satisfies Prisma.ArticleSelect;

export async function listArticles(db: Database, workspaceId: string, input: z.infer<typeof listArticlesInput>) {
  const where: Prisma.ArticleWhereInput = { source: { workspaceId } };
  if (input.sourceId) where.sourceId = input.sourceId;
  if (input.query)
    where.OR = [{ title: { contains: input.query, mode: "insensitive" } }, { content: { contains: input.query, mode: "insensitive" } }];
  const rows = await db.prisma.article.findMany({
    where,
    select: summarySelect,
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: PANEL_ARTICLES_MAX_PER_LIST,
  });
  const scores = await articleScores(
    db,
    rows.map((row) => row.id),
  );
  return rows.map(({ source, ...row }) => ({
    ...row,
    sourceName: source.name,
    sourceActive: source.active,
    ...(scores.get(row.id) ?? { helpful: 0, votes: 0 }),
  }));
}

export async function getArticle(db: Database, workspaceId: string, id: string) {
  const row = await db.prisma.article.findFirst({ where: { id, source: { workspaceId } }, select: detailSelect });
  if (!row) throw new AppError(KNOWLEDGE_ERRORS.ARTICLE_NOT_FOUND);
  const { source, ...article } = row;
  return { ...article, sourceName: source.name, sourceActive: source.active, agentIds: source.agents.map((link) => link.agentId) };
}

export type ArticleSummary = Awaited<ReturnType<typeof listArticles>>[number];
export type ArticleDetail = Awaited<ReturnType<typeof getArticle>>;

export async function createArticle(
  db: Database,
  scope: AdminScope,
  input: z.infer<typeof createArticleInput>,
  now: Date,
): Promise<ArticleDetail> {
  const { workspaceId } = scope;
  await assertSourceInWorkspace(db, workspaceId, input.sourceId);
  const published = input.published ?? false;
  const detectedLanguage = await detectArticleLanguage(input);
  const article = await withSlugConflict(() =>
    db.prisma.$transaction(async (tx) => {
      await assertSourceHasRoom(tx, input.sourceId);
      await assertTranslationLink(tx, workspaceId, null, input.translationOfId ?? null);
      const slug = input.slug ?? (await freeArticleSlug(tx, input.sourceId, slugFromTitle(input.title)));
      const created = await tx.article.create({
        data: {
          sourceId: input.sourceId,
          title: input.title,
          slug,
          content: input.content,
          language: input.language ?? null,
          detectedLanguage,
          translationOfId: input.translationOfId ?? null,
          published,
          publishedAt: published ? now : null,
        },
        select: { id: true },
      });
      if (published) await recordArticlePublication(tx, workspaceId, created.id, true, now);
      await recordRevision(tx, created.id, scope.userId, now);
      await recordAudit(tx, scope, {
        action: "article.created",
        targetType: "article",
        targetId: created.id,
        targetLabel: input.title,
        detail: { published },
      });
      return created;
    }),
  );
  return getArticle(db, workspaceId, article.id);
}

/**
 * Whether the source may take one more article (ARTICLES_PER_SOURCE_MAX). Its row is locked first,
 * for the rest of the transaction: two saves racing for the last place take turns, and the second
 * counts the first's article.
 */
export async function sourceHasRoom(tx: Prisma.TransactionClient, sourceId: string): Promise<boolean> {
  await tx.$queryRaw(Prisma.sql`SELECT 1 FROM "Source" WHERE "id" = ${sourceId} FOR NO KEY UPDATE`);
  return (await tx.article.count({ where: { sourceId } })) < ARTICLES_PER_SOURCE_MAX;
}

async function assertSourceHasRoom(tx: Prisma.TransactionClient, sourceId: string): Promise<void> {
  if (!(await sourceHasRoom(tx, sourceId))) throw new AppError(KNOWLEDGE_ERRORS.ARTICLES_PER_SOURCE_LIMIT);
}

/** The unique slug index's conflict, as the editor's message. */
async function withSlugConflict<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isSlugConflict(error)) throw new AppError(KNOWLEDGE_ERRORS.ARTICLE_SLUG_TAKEN);
    throw error;
  }
}

/** help.article.published / unpublished, in the transaction that changed the article (imports too). */
export async function recordArticlePublication(
  tx: Prisma.TransactionClient,
  workspaceId: string,
  id: string,
  published: boolean,
  now: Date,
) {
  const article = await tx.article.findUniqueOrThrow({
    where: { id },
    select: { id: true, sourceId: true, title: true, publishedAt: true, source: { select: { agents: { select: { agentId: true } } } } },
  });
  const agentIds = article.source.agents.map((link) => link.agentId).sort();
  await recordWebhookEvents(
    tx,
    { workspaceId, agentIds },
    [
      articlePublication(
        { id: article.id, sourceId: article.sourceId, title: article.title, publishedAt: article.publishedAt, agentIds },
        published,
      ),
    ],
    now,
  );
}

/**
 * Updates an article of the workspace and records `action` with it; NOT_FOUND when it is another
 * workspace's (or missing).
 */
async function updateInWorkspace(
  db: Database,
  scope: AdminScope,
  id: string,
  data: Prisma.ArticleUncheckedUpdateManyInput,
  audit: Omit<AuditEntry, "targetType" | "targetId" | "targetLabel">,
  /** Set for a change of the text (a new revision at that time); unset for a flag. */
  revisionAt?: Date,
): Promise<ArticleDetail> {
  await withSlugConflict(() =>
    db.prisma.$transaction(async (tx) => {
      if (data.translationOfId !== undefined) await assertTranslationLink(tx, scope.workspaceId, id, data.translationOfId as string | null);
      if (typeof data.sourceId === "string") await assertRoomToMoveIn(tx, scope.workspaceId, id, data.sourceId);
      const { count } = await tx.article.updateMany({ where: { id, source: { workspaceId: scope.workspaceId } }, data });
      if (count === 0) throw new AppError(KNOWLEDGE_ERRORS.ARTICLE_NOT_FOUND);
      if (data.title !== undefined || data.content !== undefined) await recordDetectedLanguage(tx, id);
      if (revisionAt) await recordRevision(tx, id, scope.userId, revisionAt);
      const { title } = await tx.article.findUniqueOrThrow({ where: { id }, select: { title: true } });
      await recordAudit(tx, scope, { ...audit, targetType: "article", targetId: id, targetLabel: title });
    }),
  );
  return getArticle(db, scope.workspaceId, id);
}

/** An article moved to another source takes a place there (staying in its own source takes none). */
async function assertRoomToMoveIn(tx: Prisma.TransactionClient, workspaceId: string, id: string, sourceId: string): Promise<void> {
  const current = await tx.article.findFirst({ where: { id, source: { workspaceId } }, select: { sourceId: true } });
  if (current && current.sourceId !== sourceId) await assertSourceHasRoom(tx, sourceId);
}

/** A save of the editor: the change, its revision and its audit event in one transaction. */
export async function updateArticle(
  db: Database,
  scope: AdminScope,
  input: z.infer<typeof updateArticleInput>,
  now: Date,
): Promise<ArticleDetail> {
  const { id, ...fields } = input;
  const current = await db.prisma.article.findFirst({
    where: { id, source: { workspaceId: scope.workspaceId } },
    select: { title: true, content: true, slug: true, sourceId: true, language: true, translationOfId: true },
  });
  if (!current) throw new AppError(KNOWLEDGE_ERRORS.ARTICLE_NOT_FOUND);
  // The editor sends every field on each save: the audit entry names only those that changed, and
  // a save that changes nothing writes nothing (no new version, no audit entry).
  const changed = changedArticleFields(current, fields);
  if (changed.length === 0) return getArticle(db, scope.workspaceId, id);
  if (fields.sourceId !== undefined) {
    await assertSourceInWorkspace(db, scope.workspaceId, fields.sourceId);
    // Moved to another source: its slug must be free there too (the next free one when not given).
    if (fields.slug === undefined && current.sourceId !== fields.sourceId)
      fields.slug = await freeArticleSlug(db.prisma, fields.sourceId, current.slug, id);
  }
  return updateInWorkspace(db, scope, id, fields, { action: "article.updated", detail: { fields: changed } }, now);
}

type EditableFields = Omit<z.infer<typeof updateArticleInput>, "id">;

/** The fields of a save that differ from the article as stored, sorted by name (a field left out is unchanged). */
export function changedArticleFields(current: Record<keyof EditableFields, unknown>, fields: EditableFields): string[] {
  return (Object.keys(fields) as (keyof EditableFields)[])
    .filter((name) => fields[name] !== undefined && fields[name] !== current[name])
    .sort();
}

/**
 * Publishing stamps publishedAt; unpublishing clears it (the article is a draft again). A real
 * change emits help.article.published or help.article.unpublished in the same transaction, and is
 * recorded in the audit log.
 */
export async function setArticlePublished(
  db: Database,
  scope: AdminScope,
  input: z.infer<typeof setArticlePublishedInput>,
  now: Date,
): Promise<ArticleDetail> {
  const { workspaceId } = scope;
  await db.prisma.$transaction(async (tx) => {
    // Publishing an already published article keeps its first publication time. Publishing now
    // replaces a scheduled publication.
    const { count } = await tx.article.updateMany({
      where: { id: input.id, source: { workspaceId }, published: !input.published },
      data: input.published ? { published: true, publishedAt: now, publishAt: null } : { published: false, publishedAt: null },
    });
    if (count > 0) {
      await recordArticlePublication(tx, workspaceId, input.id, input.published, now);
      await recordRevision(tx, input.id, scope.userId, now);
      const { title } = await tx.article.findUniqueOrThrow({ where: { id: input.id }, select: { title: true } });
      const action = input.published ? "article.published" : "article.unpublished";
      await recordAudit(tx, scope, { action, targetType: "article", targetId: input.id, targetLabel: title });
      return;
    }
    // No change: the article is missing (NOT_FOUND) or already in that state (its updatedAt moves, as before).
    const unchanged = await tx.article.updateMany({
      where: { id: input.id, source: { workspaceId } },
      data: { published: input.published },
    });
    if (unchanged.count === 0) throw new AppError(KNOWLEDGE_ERRORS.ARTICLE_NOT_FOUND);
  });
  return getArticle(db, workspaceId, input.id);
}

export async function setArticleActive(
  db: Database,
  scope: AdminScope,
  input: z.infer<typeof setArticleActiveInput>,
): Promise<ArticleDetail> {
  const action = input.active ? "article.activated" : "article.deactivated";
  return updateInWorkspace(db, scope, input.id, { active: input.active }, { action });
}

/** The editor's preview: the draft's HTML exactly as the help page will render the article. */
export function previewArticle(input: z.infer<typeof previewArticleInput>): { html: string } {
  return { html: renderArticleHtml(input.content) };
}
