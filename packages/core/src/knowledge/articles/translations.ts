// Translations: an article may say which article it translates (its original). Groups stay one
// level deep, so the help page finds every language of an article from its original: a
// translation links an original of the same workspace, never itself or another translation, and
// an original with translations cannot become a translation.
import { type Database, Prisma } from "@parley/db";
import { z } from "zod";
import { rowId } from "../../people/scope.ts";
import { AppError } from "../../platform/errors.ts";
import { KNOWLEDGE_ERRORS } from "../errors.ts";
import { PANEL_ARTICLES_MAX_PER_LIST } from "../limits.ts";

/** The editor's "Translation of" choice: an article id, or null for an original. */
export const translationOfInput = rowId.nullable();

export const translationOriginalsInput = z.object({
  /** The article being edited (left out of the choices); absent for a new article. */
  articleId: rowId.optional(),
});

type Reader = Pick<Prisma.TransactionClient, "$queryRaw" | "article">;

/**
 * Checks that `articleId` (null: an article being created) may translate `translationOfId`, in the
 * transaction that saves the link: ARTICLE_NOT_FOUND when the article is not the workspace's, then
 * the translation rules. Both rows are locked first, so two saves cannot build a chain between them.
 */
export async function assertTranslationLink(
  tx: Reader,
  workspaceId: string,
  articleId: string | null,
  translationOfId: string | null,
): Promise<void> {
  if (translationOfId === null) return;
  if (translationOfId === articleId) throw new AppError(KNOWLEDGE_ERRORS.TRANSLATION_OF_ITSELF);
  const ids = articleId === null ? [translationOfId] : [articleId, translationOfId].sort();
  await tx.$queryRaw(Prisma.sql`SELECT "id" FROM "Article" WHERE "id" IN (${Prisma.join(ids)}) ORDER BY "id" FOR UPDATE`);
  if (articleId !== null && !(await tx.article.findFirst({ where: { id: articleId, source: { workspaceId } }, select: { id: true } })))
    throw new AppError(KNOWLEDGE_ERRORS.ARTICLE_NOT_FOUND);
  const original = await tx.article.findFirst({
    where: { id: translationOfId, source: { workspaceId } },
    select: { translationOfId: true },
  });
  if (!original) throw new AppError(KNOWLEDGE_ERRORS.TRANSLATION_ORIGINAL_NOT_FOUND);
  if (original.translationOfId !== null) throw new AppError(KNOWLEDGE_ERRORS.TRANSLATION_OF_TRANSLATION);
  if (articleId !== null && (await tx.article.count({ where: { translationOfId: articleId } })) > 0)
    throw new AppError(KNOWLEDGE_ERRORS.TRANSLATION_HAS_TRANSLATIONS);
}

/** The articles the editor offers as originals: the workspace's originals other than this one, by title. */
export async function listTranslationOriginals(db: Database, workspaceId: string, input: z.infer<typeof translationOriginalsInput>) {
  const rows = await db.prisma.article.findMany({
    where: { source: { workspaceId }, translationOfId: null, ...(input.articleId ? { id: { not: input.articleId } } : {}) },
    select: { id: true, title: true, language: true, source: { select: { name: true } } },
    orderBy: [{ title: "asc" }, { id: "asc" }],
    take: PANEL_ARTICLES_MAX_PER_LIST,
  });
  return rows.map(({ source, ...row }) => ({ ...row, sourceName: source.name }));
}
