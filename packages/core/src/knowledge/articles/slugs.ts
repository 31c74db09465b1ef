// Article slugs: the readable part of a help page's address, unique within a source. Generated
// from the title when an article is created (or imported without one), editable afterwards.
import type { Prisma } from "@parley/db";
import slugify from "@sindresorhus/slugify";
import { z } from "zod";
import { ARTICLE_SLUG_GENERATED_MAX_CHARS, ARTICLE_SLUG_MAX_CHARS } from "../limits.ts";

export const ARTICLE_SLUG_PATTERN = /^[a-z0-9-]+$/;

export const articleSlugInput = z
  .string()
  .trim()
  .min(1, "Enter a slug")
  .max(ARTICLE_SLUG_MAX_CHARS, `Use at most ${ARTICLE_SLUG_MAX_CHARS} characters`)
  .regex(ARTICLE_SLUG_PATTERN, "Use lowercase letters a-z, digits and hyphens only");

/** True when `value` could be a slug (the help page tells slugs from ids by lookup, not by form). */
export function isArticleSlug(value: string): boolean {
  return articleSlugInput.safeParse(value).success && value.trim() === value;
}

/** The slug a title suggests: transliterated, lowercase, hyphenated; "article" when nothing is left. */
export function slugFromTitle(title: string): string {
  const slug = slugify(title, { decamelize: false }).slice(0, ARTICLE_SLUG_GENERATED_MAX_CHARS).replace(/-+$/, "");
  return slug || "article";
}

/**
 * The first of `base`, `base-2`, `base-3` ... that no other article of the source uses (the
 * unique index still guards against a concurrent writer: the caller maps its conflict).
 */
export async function freeArticleSlug(
  tx: Prisma.TransactionClient,
  sourceId: string,
  base: string,
  exceptArticleId?: string,
): Promise<string> {
  const rows = await tx.article.findMany({
    where: { sourceId, slug: { startsWith: base }, ...(exceptArticleId ? { id: { not: exceptArticleId } } : {}) },
    select: { slug: true },
  });
  const taken = new Set(rows.map((row) => row.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** True for the unique index's conflict on (sourceId, slug). */
export function isSlugConflict(error: unknown): boolean {
  const known = error as { code?: unknown; meta?: { target?: unknown; driverAdapterError?: unknown } };
  return known?.code === "P2002" && JSON.stringify(known.meta ?? {}).includes("slug");
}
