// The language of an article left to detection, stored: detected from its title and content in
// the transaction that changes either, and filled in by the worker for articles written before
// (or by the seed and bulk loads, which skip core). The help centre's lists, language filter and
// alternates then read `language ?? detectedLanguage` from the row, not the text.
import { type Database, Prisma } from "@parley/db";
import { logger } from "../../platform/logger.ts";
import type { BackgroundTask } from "../../platform/scheduler/task.ts";
import { DETECTED_LANGUAGES_PER_PASS } from "../limits.ts";
import { articleLanguageOf, loadLanguageDetector } from "./detection.ts";

/** Detection as the knowledge search reads an article left to it (the detector loaded). */
function detectedLanguageOf(article: { title: string; content: string }): string {
  return articleLanguageOf({ ...article, language: null });
}

/** The language to store with an article written with this title and content. */
export async function detectArticleLanguage(article: { title: string; content: string }): Promise<string> {
  await loadLanguageDetector();
  return detectedLanguageOf(article);
}

/** Stores the detected language of article `id` from its current text (after a change of part of it). */
export async function recordDetectedLanguage(tx: Prisma.TransactionClient, id: string): Promise<void> {
  const article = await tx.article.findUnique({ where: { id }, select: { title: true, content: true } });
  if (!article) return;
  // A raw write: Prisma's update would move updatedAt again, for no edit of its own.
  await tx.$executeRaw`UPDATE "Article" SET "detectedLanguage" = ${await detectArticleLanguage(article)} WHERE "id" = ${id}`;
}

/**
 * Detects the language of up to `limit` articles that have none stored; returns how many were
 * stored. Each row is written only if it has not changed since it was read (a save in between
 * detects its own; a change of a flag leaves it to the next pass).
 */
export async function detectMissingLanguages(db: Database, limit = DETECTED_LANGUAGES_PER_PASS): Promise<number> {
  const rows = await db.rows<{ id: string; title: string; content: string; updatedAt: Date }>(Prisma.sql`
    SELECT a."id", a."title", a."content", a."updatedAt" FROM "Article" a
    WHERE a."detectedLanguage" IS NULL ORDER BY a."id" LIMIT ${limit}`);
  if (rows.length === 0) return 0;
  await loadLanguageDetector();
  let stored = 0;
  for (const row of rows) {
    stored += await db.prisma.$executeRaw`
      UPDATE "Article" SET "detectedLanguage" = ${detectedLanguageOf(row)}
      WHERE "id" = ${row.id} AND "detectedLanguage" IS NULL AND "updatedAt" = ${row.updatedAt}`;
  }
  return stored;
}

/** The background work that fills in the languages never detected, a batch a pass (detected-languages-task.ts). */
export class LanguageDetectionTask implements BackgroundTask {
  readonly name = "detected-languages";
  constructor(private readonly options: { db: Database }) {}

  async run(): Promise<void> {
    const count = await detectMissingLanguages(this.options.db);
    if (count > 0) logger.info("article languages detected", { count });
  }
}
