// Knowledge-base articles of a workspace (through their source). What visitors see of them is
// decided elsewhere, by the one visibility rule (published, active, linked source, active agent).
import type { Database, Prisma } from "@parley/db";
import { z } from "zod";
import { AppError } from "../errors.ts";
import { ARTICLE_CONTENT_MAX_CHARS, ARTICLE_TITLE_MAX_CHARS, HELP_QUERY_MAX_CHARS, PANEL_ARTICLES_MAX_PER_LIST } from "../limits.ts";
import { assertSourceInWorkspace, rowId } from "./scope.ts";

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
export const createArticleInput = z.object({
  sourceId: rowId,
  title: titleInput,
  content: contentInput,
  published: z.boolean().optional(),
});
export const updateArticleInput = z.object({
  id: rowId,
  title: titleInput.optional(),
  content: contentInput.optional(),
  sourceId: rowId.optional(),
});
export const setArticlePublishedInput = z.object({ id: rowId, published: z.boolean() });
export const setArticleActiveInput = z.object({ id: rowId, active: z.boolean() });

const summarySelect = {
  id: true,
  sourceId: true,
  title: true,
  published: true,
  active: true,
  updatedAt: true,
  source: { select: { name: true } },
} satisfies Prisma.ArticleSelect;

const detailSelect = {
  ...summarySelect,
  content: true,
  createdAt: true,
  publishedAt: true,
  source: { select: { name: true, agents: { select: { agentId: true }, orderBy: { createdAt: "asc" } } } },
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
  return rows.map(({ source, ...row }) => ({ ...row, sourceName: source.name }));
}

export async function getArticle(db: Database, workspaceId: string, id: string) {
  const row = await db.prisma.article.findFirst({ where: { id, source: { workspaceId } }, select: detailSelect });
  if (!row) throw new AppError("ARTICLE_NOT_FOUND");
  const { source, ...article } = row;
  return { ...article, sourceName: source.name, agentIds: source.agents.map((link) => link.agentId) };
}

export type ArticleSummary = Awaited<ReturnType<typeof listArticles>>[number];
export type ArticleDetail = Awaited<ReturnType<typeof getArticle>>;

export async function createArticle(
  db: Database,
  workspaceId: string,
  input: z.infer<typeof createArticleInput>,
  now: Date,
): Promise<ArticleDetail> {
  await assertSourceInWorkspace(db, workspaceId, input.sourceId);
  const published = input.published ?? false;
  const article = await db.prisma.article.create({
    data: { sourceId: input.sourceId, title: input.title, content: input.content, published, publishedAt: published ? now : null },
    select: { id: true },
  });
  return getArticle(db, workspaceId, article.id);
}

/** Updates an article of the workspace; NOT_FOUND when it is another workspace's (or missing). */
async function updateInWorkspace(
  db: Database,
  workspaceId: string,
  id: string,
  data: Prisma.ArticleUncheckedUpdateManyInput,
): Promise<ArticleDetail> {
  const { count } = await db.prisma.article.updateMany({ where: { id, source: { workspaceId } }, data });
  if (count === 0) throw new AppError("ARTICLE_NOT_FOUND");
  return getArticle(db, workspaceId, id);
}

export async function updateArticle(db: Database, workspaceId: string, input: z.infer<typeof updateArticleInput>): Promise<ArticleDetail> {
  const { id, ...fields } = input;
  if (fields.sourceId !== undefined) await assertSourceInWorkspace(db, workspaceId, fields.sourceId);
  return updateInWorkspace(db, workspaceId, id, fields);
}

/** Publishing stamps publishedAt; unpublishing clears it (the article is a draft again). */
export async function setArticlePublished(
  db: Database,
  workspaceId: string,
  input: z.infer<typeof setArticlePublishedInput>,
  now: Date,
): Promise<ArticleDetail> {
  if (input.published) {
    // Publishing an already published article keeps its first publication time.
    const { count } = await db.prisma.article.updateMany({
      where: { id: input.id, source: { workspaceId }, published: false },
      data: { published: true, publishedAt: now },
    });
    if (count > 0) return getArticle(db, workspaceId, input.id);
    return updateInWorkspace(db, workspaceId, input.id, { published: true });
  }
  return updateInWorkspace(db, workspaceId, input.id, { published: false, publishedAt: null });
}

export async function setArticleActive(
  db: Database,
  workspaceId: string,
  input: z.infer<typeof setArticleActiveInput>,
): Promise<ArticleDetail> {
  return updateInWorkspace(db, workspaceId, input.id, { active: input.active });
}
