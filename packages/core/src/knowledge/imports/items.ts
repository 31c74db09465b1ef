// One imported article, written in its own transaction: found again by its source URL or its slug
// (a re-import updates it instead of adding a duplicate), created otherwise. An item that breaks a
// rule (no title, too long, unstorable text, a full source) fails alone with the reason; the job goes on.
import type { Database, Prisma } from "@parley/db";
import { ARTICLE_CONTENT_MAX_CHARS, ARTICLE_TITLE_MAX_CHARS } from "../../platform/limits.ts";
import { describeError, logger } from "../../platform/logger.ts";
import { isUnstorableText } from "../../platform/storable-text.mjs";
import { recordArticlePublication, sourceHasRoom } from "../articles/articles.ts";
import { freeArticleSlug, isArticleSlug, slugFromTitle } from "../articles/slugs.ts";
import { KNOWLEDGE_ERRORS } from "../errors.ts";
import { detectArticleLanguage } from "../languages/detected.ts";

/** What a reader found in one file, page or export entry (or why it could not read it). */
export interface ImportItem {
  /** The file name, URL or export id, as the report names it. */
  name: string;
  title?: string;
  slug?: string;
  content?: string;
  /** Absent: a new article is a draft, an existing one keeps its state. */
  published?: boolean;
  sourceUrl?: string;
  /** Set when the item could not be read; it fails with this reason. */
  failure?: string;
  /** Set when the item is deliberately not imported (not an article); it is skipped with this reason. */
  skip?: string;
}

export type ImportOutcome = "created" | "updated" | "skipped" | "failed";

export interface ReportEntry {
  item: string;
  outcome: ImportOutcome;
  reason?: string;
  articleId?: string;
  /** A created article left a draft (nothing in the upload said to publish it). */
  draft?: boolean;
}

export interface ImportTarget {
  workspaceId: string;
  sourceId: string;
}

export async function importItem(db: Database, target: ImportTarget, item: ImportItem, now: Date): Promise<ReportEntry> {
  if (item.skip) return { item: item.name, outcome: "skipped", reason: item.skip };
  if (item.failure) return { item: item.name, outcome: "failed", reason: item.failure };
  const problem = ruleBroken(item);
  if (problem) return { item: item.name, outcome: "failed", reason: problem };
  try {
    return await db.prisma.$transaction((tx) =>
      writeItem(tx, target, item as Required<Pick<ImportItem, "title" | "content">> & ImportItem, now),
    );
  } catch (error) {
    if (isWriteConflict(error))
      return { item: item.name, outcome: "failed", reason: "The article could not be saved (a concurrent change); import it again" };
    logger.warn("import item not saved", { error: describeError(error) });
    return { item: item.name, outcome: "failed", reason: "The article could not be saved; import it again" };
  }
}

/** A unique index (slug, source URL) or a serialization failure: another save got there first. */
function isWriteConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "P2002" || code === "P2034";
}

function ruleBroken(item: ImportItem): string | null {
  const title = item.title?.trim() ?? "";
  if (!title) return "No title (front matter `title`, a `# heading` or the page's title)";
  if (title.length > ARTICLE_TITLE_MAX_CHARS) return `The title is longer than ${ARTICLE_TITLE_MAX_CHARS} characters`;
  if (!item.content?.trim()) return "No content";
  if (item.content.length > ARTICLE_CONTENT_MAX_CHARS)
    return `The content is longer than ${ARTICLE_CONTENT_MAX_CHARS.toLocaleString("en-US")} characters`;
  for (const [field, text] of [
    ["title", title],
    ["content", item.content],
    ["source URL", item.sourceUrl ?? ""],
  ] as const)
    if (isUnstorableText(text))
      return `The ${field} contains a NUL character or invalid Unicode, which cannot be stored: remove it and import again`;
  if (item.slug !== undefined && !isArticleSlug(item.slug))
    return `The slug "${item.slug.slice(0, 130)}" is not lowercase a-z, digits and hyphens (1 to 120)`;
  return null;
}

async function writeItem(
  tx: Prisma.TransactionClient,
  target: ImportTarget,
  item: ImportItem & { title: string; content: string },
  now: Date,
): Promise<ReportEntry> {
  const title = item.title.trim();
  const existing = await tx.article.findFirst({
    where: {
      sourceId: target.sourceId,
      OR: [...(item.sourceUrl ? [{ sourceUrl: item.sourceUrl }] : []), ...(item.slug ? [{ slug: item.slug }] : [])],
    },
    select: { id: true, title: true, content: true, published: true, sourceUrl: true },
  });
  if (existing && (item.sourceUrl || item.slug)) {
    const published = item.published ?? existing.published;
    if (existing.title === title && existing.content === item.content && existing.published === published)
      return { item: item.name, outcome: "skipped", reason: "Unchanged since the last import", articleId: existing.id };
    await tx.article.update({
      where: { id: existing.id },
      data: {
        title,
        content: item.content,
        detectedLanguage: await detectArticleLanguage({ title, content: item.content }),
        sourceUrl: existing.sourceUrl ?? item.sourceUrl,
        ...(published !== existing.published ? { published, publishedAt: published ? now : null } : {}),
      },
    });
    if (published !== existing.published) await recordArticlePublication(tx, target.workspaceId, existing.id, published, now);
    return { item: item.name, outcome: "updated", articleId: existing.id };
  }
  if (!(await sourceHasRoom(tx, target.sourceId)))
    return { item: item.name, outcome: "failed", reason: KNOWLEDGE_ERRORS.ARTICLES_PER_SOURCE_LIMIT.message };
  const published = item.published ?? false;
  const slug = await freeArticleSlug(tx, target.sourceId, item.slug ?? slugFromTitle(title));
  const created = await tx.article.create({
    data: {
      sourceId: target.sourceId,
      title,
      slug,
      content: item.content,
      detectedLanguage: await detectArticleLanguage({ title, content: item.content }),
      sourceUrl: item.sourceUrl,
      published,
      publishedAt: published ? now : null,
    },
    select: { id: true },
  });
  if (published) await recordArticlePublication(tx, target.workspaceId, created.id, true, now);
  return { item: item.name, outcome: "created", articleId: created.id, ...(published ? {} : { draft: true }) };
}
