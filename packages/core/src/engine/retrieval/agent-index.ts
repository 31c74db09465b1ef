// Each agent's passage index, in process. Built from the database on an agent's first knowledge
// turn and checked on every turn with one cheap statement (the count and latest update time of
// its visible articles, which sources are visible, its synonyms): a change made by any instance
// shows up on the next turn of every instance, with no message between them. When the check
// differs, only articles added or updated since are read again; the index itself is rebuilt
// from the analysed articles held in memory.
//
// Why in process: ranking needs per-term statistics, field weights, typo candidates and phrase
// pairs that PostgreSQL's full-text search does not give (ts_rank has no BM25, no per-field
// length normalisation, no edit distance), and PGlite and PostgreSQL 15 both lack an extension
// for it. A 10k-article help centre's index fits in tens of megabytes.
import { type Database, Prisma } from "@parley/db";
import { articleIsPublishedSql, visibleSourcesSql } from "../../help/visibility.ts";
import { KNOWLEDGE_INDEX_MAX_ARTICLES } from "../../limits.ts";
import { articleLanguageOf, articleLanguageSql, type Language, loadLanguageDetector } from "./languages.ts";
import { type IndexedArticle, PassageIndex } from "./passage-index.ts";
import { builtInSynonyms, parseSynonymGroups, type SynonymGroup } from "./synonyms.ts";

export interface StoredArticle extends IndexedArticle {
  /** For the help page's address. */
  slug: string;
  updatedAt: Date;
}

export interface AgentIndex {
  index: PassageIndex;
  articles: ReadonlyMap<string, StoredArticle>;
  /** The built-in groups of a language with the agent's own. */
  synonyms: (language: Language) => readonly SynonymGroup[];
}

interface Signature {
  count: number;
  latest: Date | null;
  sources: string;
  synonyms: string;
}

interface Entry {
  signature: string;
  built: Promise<AgentIndex>;
}

// Per database (tests and the eval open several), per agent.
const indexes = new WeakMap<Database, Map<string, Entry>>();

function signatureSql(agentId: string): Prisma.Sql {
  return Prisma.sql`
    WITH vs AS MATERIALIZED (${visibleSourcesSql(agentId)})
    SELECT
      (SELECT count(*)::int FROM "Article" a WHERE ${articleIsPublishedSql("a")} AND a."sourceId" IN (SELECT vs."id" FROM vs)) AS "count",
      (SELECT max(a."updatedAt") FROM "Article" a WHERE ${articleIsPublishedSql("a")} AND a."sourceId" IN (SELECT vs."id" FROM vs)) AS "latest",
      (SELECT coalesce(string_agg(vs."id", ',' ORDER BY vs."id"), '') FROM vs) AS "sources",
      (SELECT coalesce(ag."knowledgeSynonyms", '') FROM "Agent" ag WHERE ag."id" = ${agentId}) AS "synonyms"`;
}

function keyOf(signature: Signature): string {
  return JSON.stringify([signature.count, signature.latest?.toISOString() ?? null, signature.sources, signature.synonyms]);
}

/** The agent's index as of now (its visible articles only). */
export async function agentIndex(db: Database, agentId: string): Promise<AgentIndex> {
  await loadLanguageDetector();
  const [row] = await db.prisma.$queryRaw<Signature[]>(signatureSql(agentId));
  const signature = row ?? { count: 0, latest: null, sources: "", synonyms: "" };
  const key = keyOf(signature);
  let perAgent = indexes.get(db);
  if (!perAgent) {
    perAgent = new Map();
    indexes.set(db, perAgent);
  }
  const entry = perAgent.get(agentId);
  if (entry?.signature === key) return entry.built;

  const previous = entry?.built.catch(() => undefined);
  const built = (async () => build(db, agentId, signature, await previous))();
  perAgent.set(agentId, { signature: key, built });
  built.catch(() => {
    if (perAgent.get(agentId)?.built === built) perAgent.delete(agentId); // try again next turn
  });
  if (!previous) return built;
  // A change to a large help centre: the turn answers from the index it had rather than wait
  // for the whole rebuild; the turns after it get the new one.
  const stale = await previous;
  if (!stale) return built;
  return Promise.race([built.catch(() => stale), delay(REBUILD_WAIT_MS).then(() => stale)]);
}

/** How long a turn waits for a rebuilt index before answering from the previous one. */
const REBUILD_WAIT_MS = 500;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}

async function build(db: Database, agentId: string, signature: Signature, previous: AgentIndex | undefined): Promise<AgentIndex> {
  const visible = await db.prisma.$queryRaw<Array<{ id: string; updatedAt: Date }>>(Prisma.sql`
    SELECT a."id", a."updatedAt" FROM "Article" a
    WHERE ${articleIsPublishedSql("a")} AND a."sourceId" IN (SELECT v."id" FROM (${visibleSourcesSql(agentId)}) v)
    ORDER BY a."updatedAt" DESC, a."id" LIMIT ${KNOWLEDGE_INDEX_MAX_ARTICLES}`);
  const articles = new Map<string, StoredArticle>();
  const stale: string[] = [];
  for (const { id, updatedAt } of visible) {
    const known = previous?.articles.get(id);
    if (known && known.updatedAt.getTime() === updatedAt.getTime()) articles.set(id, known);
    else stale.push(id);
  }
  for (let i = 0; i < stale.length; i += 500) {
    const rows = await db.prisma.$queryRaw<
      Array<{ id: string; title: string; slug: string; content: string; language: string | null; updatedAt: Date }>
    >(
      Prisma.sql`SELECT a."id", a."title", a."slug", a."content", ${articleLanguageSql("a")} AS "language", a."updatedAt" FROM "Article" a WHERE a."id" IN (${Prisma.join(stale.slice(i, i + 500))})`,
    );
    for (const row of rows) {
      const language = articleLanguageOf(row);
      articles.set(row.id, { id: row.id, title: row.title, slug: row.slug, content: row.content, language, updatedAt: row.updatedAt });
    }
  }
  const own = signature.synonyms;
  const cache = new Map<Language, SynonymGroup[]>();
  return {
    index: new PassageIndex([...articles.values()].sort((a, b) => (a.id < b.id ? -1 : 1))),
    articles,
    synonyms: (language) => {
      let groups = cache.get(language);
      if (!groups) {
        groups = [...parseSynonymGroups(own, language), ...builtInSynonyms(language)];
        cache.set(language, groups);
      }
      return groups;
    },
  };
}

/**
 * Builds the index of every active agent in the background, one after another, so that the first
 * knowledge turns after a start do not wait for it (a 10k-article help centre takes seconds to
 * index). Failures are left to the turn that needs the index: it builds it again.
 */
export async function warmAgentIndexes(db: Database): Promise<void> {
  const agents = await db.prisma.agent.findMany({ where: { active: true }, select: { id: true }, orderBy: { id: "asc" } });
  for (const agent of agents) await agentIndex(db, agent.id).catch(() => undefined);
}
