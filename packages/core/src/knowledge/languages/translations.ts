// The help centre in several languages: an article's visible translations (its original and the
// original's other translations), which the page links with hreflang and its "Also in" switcher,
// and the lists' language filter (`?lang=`). Only visible articles (../visibility.ts) are ever named.
import { type Database, Prisma } from "@parley/db";
import { z } from "zod";
import { articleIsPublishedSql, articleIsVisibleSql, visibleSourcesSql } from "../visibility.ts";
import { LANGUAGE_CODES, LANGUAGE_NAMES, type LanguageCode as Language } from "./codes.ts";
import { articleLanguageOf, articleLanguageSql, loadLanguageDetector } from "./detection.ts";

/** One language version of an article, as its help page links it. */
export interface HelpTranslation {
  language: Language;
  /** The language's own name ("Français"). */
  languageName: string;
  title: string;
  slug: string;
  /** The article whose page this is. */
  current: boolean;
}

interface GroupRow {
  id: string;
  title: string;
  slug: string;
  content: string;
  language: string | null;
}

/**
 * The language versions of a visible article for agent `agentId`: the article itself and every
 * visible article of its group (the original and its translations), one per language (the
 * article's own first, then the original, then the oldest translation), the article first and
 * the others by language. Empty when no other language is visible: a page in one language has
 * no alternates. A version is left out when its slug's address shows another article of the
 * agent (two linked sources sharing a slug: the source linked first wins).
 */
export async function listVisibleTranslations(db: Database, agentId: string, articleId: string): Promise<HelpTranslation[]> {
  const rows = await db.rows<GroupRow>(visibleTranslationsSql(agentId, articleId));
  if (rows.length < 2) return [];
  if (rows.some((row) => !row.language)) await loadLanguageDetector();
  const byLanguage = new Map<Language, HelpTranslation>();
  for (const row of rows) {
    const language = articleLanguageOf(row);
    if (byLanguage.has(language)) continue;
    byLanguage.set(language, {
      language,
      languageName: LANGUAGE_NAMES[language],
      title: row.title,
      slug: row.slug,
      current: row.id === articleId,
    });
  }
  const versions = [...byLanguage.values()];
  if (versions.length < 2) return [];
  const order = (version: HelpTranslation) => (version.current ? -1 : LANGUAGE_CODES.indexOf(version.language));
  return versions.sort((a, b) => order(a) - order(b));
}

/** The statement behind listVisibleTranslations: the article first, then its original, then the oldest translations. */
export function visibleTranslationsSql(agentId: string, articleId: string): Prisma.Sql {
  return Prisma.sql`
    WITH "group" AS (SELECT coalesce(g."translationOfId", g."id") AS "originalId" FROM "Article" g WHERE g."id" = ${articleId}),
    "members" AS (
      SELECT "group"."originalId" AS "id" FROM "group"
      UNION
      SELECT t."id" FROM "group" JOIN "Article" t ON t."translationOfId" = "group"."originalId")
    SELECT a."id", a."title", a."slug", a."content", ${articleLanguageSql("a")} AS "language"
    FROM "members" m
    CROSS JOIN "group"
    JOIN "Article" a ON a."id" = m."id"
    JOIN "AgentSource" l ON l."sourceId" = a."sourceId" AND l."agentId" = ${agentId}
    WHERE ${articleIsVisibleSql("a", agentId)}
      AND ${shownAtItsSlugSql(agentId)}
    ORDER BY a."id" = ${articleId} DESC, a."id" = "group"."originalId" DESC, a."createdAt", a."id"`;
}

/**
 * The languages of the agent's visible articles (of one collection, when given), as set by an
 * admin or detected when their text last changed, in the editor's order. One index probe per
 * language and source.
 */
export function listHelpLanguages(db: Database, agentId: string, sourceId?: string): Promise<Language[]> {
  return db.rows<{ language: Language }>(helpLanguagesSql(agentId, sourceId)).then((rows) => rows.map((row) => row.language));
}

export function helpLanguagesSql(agentId: string, sourceId?: string): Prisma.Sql {
  const sourceFilter = sourceId === undefined ? Prisma.empty : Prisma.sql`WHERE v."id" = ${sourceId}`;
  const codes = Prisma.join(LANGUAGE_CODES.map((code, index) => Prisma.sql`(${code}, ${index})`));
  return Prisma.sql`
    WITH vs AS MATERIALIZED (SELECT v."id" FROM (${visibleSourcesSql(agentId)}) v ${sourceFilter})
    SELECT c."code" AS "language"
    FROM (VALUES ${codes}) c("code", "position")
    WHERE EXISTS (
      SELECT 1 FROM vs CROSS JOIN LATERAL (
        SELECT 1 FROM "Article" a WHERE a."sourceId" = vs."id" AND ${articleLanguageSql("a")} = c."code" AND ${articleIsPublishedSql("a")} LIMIT 1
      ) found)
    ORDER BY c."position"`;
}

/** The `lang` search parameter: one of the article languages, else no filter (an unknown value is ignored). */
const languageParam = z.enum(LANGUAGE_CODES);

/** A help list's language filter: the languages to offer and the one applied. */
export interface HelpLanguageFilter {
  /** The languages the filter offers; empty when the list has one language or none (no filter shown). */
  languages: Array<{ language: Language; languageName: string }>;
  /** The language applied; null: every article. */
  language: Language | null;
}

/**
 * The filter of a list whose visible articles are set to `languages`: `requested` (the `lang`
 * parameter) is applied only when it is one of them, anything else shows every article. The
 * filter is offered when the list spans more than one language, or one is applied (a collection
 * in one language, opened from the home page's filter: the way back to all its articles).
 */
export function helpLanguageFilter(languages: readonly Language[], requested: unknown): HelpLanguageFilter {
  const parsed = languageParam.safeParse(requested);
  const language = parsed.success && languages.includes(parsed.data) ? parsed.data : null;
  if (languages.length < 2 && language === null) return { languages: [], language: null };
  return { languages: languages.map((code) => ({ language: code, languageName: LANGUAGE_NAMES[code] })), language };
}

/** One language version of an article in the sitemap: its hreflang and its page's slug. */
export interface HelpAlternate {
  language: Language;
  slug: string;
}

interface AlternateRow {
  groupId: string;
  slug: string;
  title: string;
  /** Only read when the article's language is not stored yet (detected from it then). */
  content: string | null;
  language: string | null;
}

/**
 * The alternates of every visible article of the agent that has visible versions in other
 * languages, by slug: the same versions listVisibleTranslations gives its page (the article for
 * its own language, then one per other language), so the sitemap and the pages agree.
 */
export async function listSitemapAlternates(db: Database, agentId: string): Promise<Map<string, HelpAlternate[]>> {
  const rows = await db.rows<AlternateRow>(sitemapAlternatesSql(agentId));
  if (rows.some((row) => !row.language)) await loadLanguageDetector();
  const groups = new Map<string, HelpAlternate[]>();
  for (const row of rows) {
    const members = groups.get(row.groupId) ?? [];
    members.push({ slug: row.slug, language: articleLanguageOf({ ...row, content: row.content ?? "" }) });
    groups.set(row.groupId, members);
  }
  const alternates = new Map<string, HelpAlternate[]>();
  for (const members of groups.values()) {
    for (const member of members) {
      const byLanguage = new Map<Language, HelpAlternate>();
      for (const version of [member, ...members]) {
        if (!byLanguage.has(version.language)) byLanguage.set(version.language, { language: version.language, slug: version.slug });
      }
      if (byLanguage.size > 1) alternates.set(member.slug, [...byLanguage.values()]);
    }
  }
  return alternates;
}

/**
 * The statement behind listSitemapAlternates: the groups that have a translation in one of the
 * agent's visible sources, and their visible members, each group's original first and then its
 * oldest translations (a member whose slug's address shows another article is left out).
 */
export function sitemapAlternatesSql(agentId: string): Prisma.Sql {
  const language = articleLanguageSql("a");
  return Prisma.sql`
    WITH "groups" AS (
      SELECT DISTINCT t."translationOfId" AS "id" FROM "Article" t
      WHERE t."translationOfId" IS NOT NULL AND ${articleIsVisibleSql("t", agentId)}),
    "members" AS (
      SELECT g."id" AS "groupId", g."id" FROM "groups" g
      UNION ALL
      SELECT g."id", t."id" FROM "groups" g JOIN "Article" t ON t."translationOfId" = g."id")
    SELECT m."groupId", a."slug", a."title", ${language} AS "language",
      CASE WHEN ${language} IS NULL THEN a."content" END AS "content"
    FROM "members" m
    JOIN "Article" a ON a."id" = m."id"
    JOIN "AgentSource" l ON l."sourceId" = a."sourceId" AND l."agentId" = ${agentId}
    WHERE ${articleIsVisibleSql("a", agentId)}
      AND ${shownAtItsSlugSql(agentId)}
    ORDER BY m."groupId", a."id" = m."groupId" DESC, a."createdAt", a."id"`;
}

/**
 * The article `a`, of the source linked to the agent as `l`, is the one its slug's address shows:
 * no visible article of a source linked before has the same slug.
 */
function shownAtItsSlugSql(agentId: string): Prisma.Sql {
  return Prisma.sql`NOT EXISTS (
    SELECT 1 FROM "Article" b
    JOIN "AgentSource" lb ON lb."sourceId" = b."sourceId" AND lb."agentId" = ${agentId}
    WHERE b."slug" = a."slug" AND b."id" <> a."id" AND ${articleIsVisibleSql("b", agentId)}
      AND (lb."createdAt", lb."sourceId") < (l."createdAt", l."sourceId"))`;
}
