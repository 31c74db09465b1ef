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
//
// What it may hold is bounded in bytes of article text (KNOWLEDGE_INDEX_MAX_TEXT_BYTES, all agents
// of the instance together), measured in the database before any text is read: an agent whose
// newest articles hold more is answered from the database's full-text search (candidateIndex:
// the passages of a few matching articles, ranked as usual), so no help centre, however large,
// can exhaust the heap, and a start-up never reads more than fits.
import { type Database, Prisma } from "@parley/db";
import { logger } from "../../platform/logger.ts";
import { articleLanguageOf, articleLanguageSql, type Language, loadLanguageDetector } from "../languages/detection.ts";
import {
  KNOWLEDGE_DATABASE_CANDIDATES,
  KNOWLEDGE_DATABASE_TURNS_AT_ONCE,
  KNOWLEDGE_INDEX_MAX_ARTICLES,
  KNOWLEDGE_INDEX_MAX_TEXT_BYTES,
} from "../limits.ts";
import { articleIsPublishedSql, visibleSourcesSql } from "../visibility.ts";
import { searchVisibleArticles } from "./database-search.ts";
import { type IndexedArticle, PassageIndex } from "./passage-index.ts";
import { builtInSynonyms, parseSynonymGroups, type SynonymGroup } from "./synonyms.ts";

export interface StoredArticle extends IndexedArticle {
  /** Its source (the help search's collection filter). */
  sourceId: string;
  /** For the help page's address. */
  slug: string;
  updatedAt: Date;
}

export interface AgentIndex {
  index: PassageIndex;
  articles: ReadonlyMap<string, StoredArticle>;
  /** Whether it holds every visible article (not only the newest KNOWLEDGE_INDEX_MAX_ARTICLES, nor a few candidates). */
  complete: boolean;
  /** The built-in groups of a language with the agent's own. */
  synonyms: (language: Language) => readonly SynonymGroup[];
}

/** An agent whose articles' text is over the instance's budget: searched in the database. */
export interface OverBudget {
  overBudget: true;
  /** Bytes of title and content of its newest visible articles (up to KNOWLEDGE_INDEX_MAX_ARTICLES). */
  textBytes: number;
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
  built: Promise<AgentIndex | OverBudget>;
  /** Text bytes the built index holds (0 until built, and when over budget). */
  bytes: number;
  agentId: string;
  perAgent: Map<string, Entry>;
}

// Per database (tests and the eval open several), per agent. Kept on globalThis: the server's
// bundles may each load this module, and the budget is the process's.
interface Registry {
  byDatabase: WeakMap<Database, Map<string, Entry>>;
  /** Built in-memory indexes, least recently used first. */
  held: Set<Entry>;
  databaseTurns: number;
  waitingTurns: Array<() => void>;
  /** Builds run one at a time, so each sees what the others hold when it makes room. */
  builds: Promise<unknown>;
  /** Agents logged as over budget (once each until they fit again). */
  loggedOverBudget: Set<string>;
}
const REGISTRY: unique symbol = Symbol.for("parley.knowledgeIndexes") as never;
const processGlobals = globalThis as { [REGISTRY]?: Registry };
processGlobals[REGISTRY] ??= {
  byDatabase: new WeakMap(),
  held: new Set(),
  databaseTurns: 0,
  waitingTurns: [],
  builds: Promise.resolve(),
  loggedOverBudget: new Set(),
};
const registry = processGlobals[REGISTRY];

function signatureSql(agentId: string): Prisma.Sql {
  return Prisma.sql`
    WITH vs AS MATERIALIZED (${visibleSourcesSql(agentId)})
    SELECT
      (SELECT count(*)::int FROM "Article" a WHERE ${articleIsPublishedSql("a")} AND a."sourceId" IN (SELECT vs."id" FROM vs)) AS "count",
      (SELECT max(a."updatedAt") FROM "Article" a WHERE ${articleIsPublishedSql("a")} AND a."sourceId" IN (SELECT vs."id" FROM vs)) AS "latest",
      (SELECT coalesce(string_agg(vs."id", ',' ORDER BY vs."id"), '') FROM vs) AS "sources",
      coalesce((SELECT ag."knowledgeSynonyms" FROM "Agent" ag WHERE ag."id" = ${agentId}), '') AS "synonyms"`;
}

function keyOf(signature: Signature): string {
  return JSON.stringify([signature.count, signature.latest?.toISOString() ?? null, signature.sources, signature.synonyms]);
}

/**
 * The agent's index as of now (its visible articles only), or OverBudget when its articles' text
 * does not fit the instance's budget (search it with candidateIndex).
 */
export async function agentIndex(db: Database, agentId: string): Promise<AgentIndex | OverBudget> {
  await loadLanguageDetector();
  const [row] = await db.prisma.$queryRaw<Signature[]>(signatureSql(agentId));
  const signature = row ?? { count: 0, latest: null, sources: "", synonyms: "" };
  const key = keyOf(signature);
  let perAgent = registry.byDatabase.get(db);
  if (!perAgent) {
    perAgent = new Map();
    registry.byDatabase.set(db, perAgent);
  }
  const entry = perAgent.get(agentId);
  if (entry?.signature === key) {
    touch(entry);
    return entry.built;
  }

  const previous = entry?.built.catch(() => undefined);
  const next: Entry = { signature: key, built: Promise.resolve() as never, bytes: 0, agentId, perAgent };
  // A large index is not kept for the turns during its rebuild (they wait for the new one): two
  // of it at once would take twice its memory. A smaller one answers them and stays counted
  // until the new one replaces it.
  const serveStale = entry !== undefined && entry.bytes <= KNOWLEDGE_INDEX_MAX_TEXT_BYTES / 2;
  if (entry && !serveStale) forget(entry);
  // The build keeps the analysed articles it can reuse, not the previous index itself.
  const previousArticles = previous?.then((index) => (index && "articles" in index ? index.articles : undefined));
  const counted = serveStale ? entry : undefined;
  next.built = queueBuild(async () => build(db, agentId, signature, next, counted, await previousArticles));
  perAgent.set(agentId, next);
  next.built.catch(() => {
    forget(next); // try again next turn
  });
  if (!previous || !serveStale) return next.built;
  // A change to a large help centre: the turn answers from the index it had rather than wait
  // for the whole rebuild; the turns after it get the new one.
  const stale = await previous;
  if (!stale) return next.built;
  return Promise.race([next.built.catch(() => stale), delay(REBUILD_WAIT_MS).then(() => stale)]);
}

function queueBuild<T>(run: () => Promise<T>): Promise<T> {
  const built = registry.builds.then(run);
  registry.builds = built.catch(() => undefined);
  return built;
}

/** How long a turn waits for a rebuilt index before answering from the previous one. */
const REBUILD_WAIT_MS = 500;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}

function touch(entry: Entry): void {
  if (!registry.held.has(entry)) return;
  registry.held.delete(entry);
  registry.held.add(entry);
}

function forget(entry: Entry): void {
  registry.held.delete(entry);
  if (entry.perAgent.get(entry.agentId) === entry) entry.perAgent.delete(entry.agentId);
}

/**
 * Drops the least recently used indexes of other agents until `bytes` more fit the budget. The
 * agent's own previous index is kept while its replacement is built (turns answer from it).
 */
function makeRoom(bytes: number, previous: Entry | undefined): void {
  let held = 0;
  for (const entry of registry.held) held += entry.bytes;
  for (const entry of [...registry.held]) {
    if (held + bytes <= KNOWLEDGE_INDEX_MAX_TEXT_BYTES) return;
    if (entry === previous) continue;
    held -= entry.bytes;
    forget(entry);
  }
}

function synonymsOf(own: string): (language: Language) => readonly SynonymGroup[] {
  const cache = new Map<Language, SynonymGroup[]>();
  return (language) => {
    let groups = cache.get(language);
    if (!groups) {
      groups = [...parseSynonymGroups(own, language), ...builtInSynonyms(language)];
      cache.set(language, groups);
    }
    return groups;
  };
}

async function build(
  db: Database,
  agentId: string,
  signature: Signature,
  entry: Entry,
  previousEntry: Entry | undefined,
  previousArticles: ReadonlyMap<string, StoredArticle> | undefined,
): Promise<AgentIndex | OverBudget> {
  const visible = await db.prisma.$queryRaw<IndexedRow[]>(indexedArticlesSql(agentId));
  const synonyms = synonymsOf(signature.synonyms);
  const textBytes = visible.reduce((sum, row) => sum + row.bytes, 0);
  if (textBytes > KNOWLEDGE_INDEX_MAX_TEXT_BYTES) {
    if (previousEntry) forget(previousEntry);
    if (!registry.loggedOverBudget.has(agentId)) {
      registry.loggedOverBudget.add(agentId);
      logger.warn("knowledge index over its memory budget: the agent is answered from the database search", {
        agentId,
        textBytes,
        budgetBytes: KNOWLEDGE_INDEX_MAX_TEXT_BYTES,
      });
    }
    return { overBudget: true, textBytes, synonyms };
  }
  registry.loggedOverBudget.delete(agentId);
  makeRoom(textBytes, previousEntry);

  const articles = new Map<string, StoredArticle>();
  const stale: string[] = [];
  for (const { id, updatedAt } of visible) {
    const known = previousArticles?.get(id);
    if (known && known.updatedAt.getTime() === updatedAt.getTime()) articles.set(id, known);
    else stale.push(id);
  }
  for (let i = 0; i < stale.length; i += 500) {
    for (const article of await readArticles(db, stale.slice(i, i + 500))) articles.set(article.id, article);
  }
  const built = {
    index: new PassageIndex([...articles.values()].sort((a, b) => (a.id < b.id ? -1 : 1))),
    articles,
    complete: signature.count <= KNOWLEDGE_INDEX_MAX_ARTICLES,
    synonyms,
  };
  if (previousEntry) registry.held.delete(previousEntry);
  if (entry.perAgent.get(agentId) === entry) {
    entry.bytes = textBytes;
    registry.held.add(entry);
  }
  return built;
}

interface IndexedRow {
  id: string;
  updatedAt: Date;
  /** Bytes of its title and content. */
  bytes: number;
}

/** The articles an agent's index holds: its newest visible ones, with their text's size. */
function indexedArticlesSql(agentId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT a."id", a."updatedAt", (octet_length(a."title") + octet_length(a."content"))::int AS "bytes" FROM "Article" a
    WHERE ${articleIsPublishedSql("a")} AND a."sourceId" IN (SELECT v."id" FROM (${visibleSourcesSql(agentId)}) v)
    ORDER BY a."updatedAt" DESC, a."id" LIMIT ${KNOWLEDGE_INDEX_MAX_ARTICLES}`;
}

async function readArticles(db: Database, ids: readonly string[]): Promise<StoredArticle[]> {
  if (ids.length === 0) return [];
  const rows = await db.prisma.$queryRaw<
    Array<{ id: string; sourceId: string; title: string; slug: string; content: string; language: string | null; updatedAt: Date }>
  >(
    Prisma.sql`SELECT a."id", a."sourceId", a."title", a."slug", a."content", ${articleLanguageSql("a")} AS "language", a."updatedAt" FROM "Article" a WHERE a."id" IN (${Prisma.join(ids)})`,
  );
  return rows.map(storedArticle);
}

function storedArticle(row: {
  id: string;
  sourceId: string;
  title: string;
  slug: string;
  content: string;
  language: string | null;
  updatedAt: Date;
}): StoredArticle {
  return {
    id: row.id,
    sourceId: row.sourceId,
    title: row.title,
    slug: row.slug,
    content: row.content,
    language: articleLanguageOf(row),
    updatedAt: row.updatedAt,
  };
}

/**
 * The index to rank `query` against for an agent over budget: one of the few visible articles the
 * database's full-text search finds for the query's words (any of them) and those named by
 * `alsoArticleIds` (semantic retrieval's), within the candidate budget.
 */
export function overBudgetIndex(
  db: Database,
  agentId: string,
  overBudget: OverBudget,
  query: string,
  alsoArticleIds: readonly string[] = [],
): Promise<AgentIndex> {
  return withDatabaseTurn(() => candidateIndex(db, agentId, query, alsoArticleIds, overBudget.synonyms));
}

async function candidateIndex(
  db: Database,
  agentId: string,
  query: string,
  alsoArticleIds: readonly string[],
  synonyms: AgentIndex["synonyms"],
): Promise<AgentIndex> {
  const hits = await searchVisibleArticles(db, agentId, query.slice(0, KNOWLEDGE_DATABASE_QUERY_MAX_CHARS), {
    limit: KNOWLEDGE_DATABASE_CANDIDATES,
    order: "relevance",
    match: "any",
  });
  const articles = new Map<string, StoredArticle>(hits.map((hit) => [hit.id, storedArticle(hit)]));
  // Semantic retrieval's articles are the agent's visible ones already.
  const more = [...new Set(alsoArticleIds)].filter((id) => !articles.has(id)).slice(0, KNOWLEDGE_DATABASE_CANDIDATES);
  for (const article of await readArticles(db, more)) articles.set(article.id, article);
  return { index: new PassageIndex([...articles.values()].sort((a, b) => (a.id < b.id ? -1 : 1))), articles, complete: false, synonyms };
}

/** The start of a long message is what the database search is given (its words are ORed). */
const KNOWLEDGE_DATABASE_QUERY_MAX_CHARS = 1_000;

async function withDatabaseTurn<T>(run: () => Promise<T>): Promise<T> {
  while (registry.databaseTurns >= KNOWLEDGE_DATABASE_TURNS_AT_ONCE) {
    await new Promise<void>((resolve) => registry.waitingTurns.push(resolve));
  }
  registry.databaseTurns += 1;
  try {
    return await run();
  } finally {
    registry.databaseTurns -= 1;
    registry.waitingTurns.shift()?.();
  }
}

/**
 * Whether an agent's knowledge is searched in process or, over the memory budget, in the
 * database, as its next knowledge turn will find (the panel's agent page says so).
 */
export interface KnowledgeIndexStatus {
  search: "in-process" | "database";
  textBytes: number;
  budgetBytes: number;
}

export async function knowledgeIndexStatus(db: Database, agentId: string): Promise<KnowledgeIndexStatus> {
  const [row] = await db.prisma.$queryRaw<Array<{ bytes: number | null }>>(
    Prisma.sql`SELECT sum(t."bytes")::float8 AS "bytes" FROM (${indexedArticlesSql(agentId)}) t`,
  );
  const textBytes = Number(row?.bytes ?? 0);
  return {
    search: textBytes > KNOWLEDGE_INDEX_MAX_TEXT_BYTES ? "database" : "in-process",
    textBytes,
    budgetBytes: KNOWLEDGE_INDEX_MAX_TEXT_BYTES,
  };
}

/** The in-memory indexes this instance holds, least recently used first (their text in bytes). */
export function heldKnowledgeIndexes(): Array<{ agentId: string; textBytes: number }> {
  return [...registry.held].map((entry) => ({ agentId: entry.agentId, textBytes: entry.bytes }));
}

/**
 * Builds the index of every active agent in the background, one after another, so that the first
 * knowledge turns after a start do not wait for it (a 10k-article help centre takes seconds to
 * index). Failures are left to the turn that needs the index: it builds it again. An agent over
 * the budget is only measured, never read.
 */
export async function warmAgentIndexes(db: Database): Promise<void> {
  const agents = await db.prisma.agent.findMany({ where: { active: true }, select: { id: true }, orderBy: { id: "asc" } });
  for (const agent of agents) await agentIndex(db, agent.id).catch(() => undefined);
}
