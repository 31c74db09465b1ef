// The bare baseline of `npm run bench`: a minimal node:http server answering the same requests as
// Parley (same URLs, same JSON shapes, same visibility rule, same search semantics over the same
// functions and indexes) with hand-written SQL through a `pg` Pool, and nothing else: no framework,
// no ORM, no rate limiting, no logging. It measures what the hardware and PostgreSQL allow, so the
// app's ratio shows both its framework cost and its query quality.
//
// Run as its own process (the runner starts it): DATABASE_URL and PORT from the environment; it
// prints "listening <port>" when ready.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { MESSAGE_BODY_MAX_BYTES as BODY_MAX_BYTES, MESSAGE_MAX_CHARS } from "@parley/core/conversations/limits";
import { KNOWLEDGE_SEARCH_RESULTS as KNOWLEDGE_RESULTS } from "@parley/core/engine/limits";
import { HELP_EXCERPT_CHARS as EXCERPT_CHARS, HELP_CACHE_CONTROL, HELP_ARTICLES_PER_LIST as LIST_LIMIT } from "@parley/core/help/limits";
import { HELP_QUERY_MAX_CHARS as QUERY_MAX_CHARS, HELP_RANK_CANDIDATES as RANK_CANDIDATES } from "@parley/core/knowledge/limits";
import pg from "pg";

// The same limits as the app (the limits.ts of packages/core/src's modules), so both do the same amount of work.
const HELP_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": HELP_CACHE_CONTROL };
const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };

// The visibility rule (spec 4.5.1), as a derived table of the agent's visible sources ($1 = agent).
const VISIBLE_SOURCES = `
  SELECT s.id, s.name FROM "AgentSource" l
  JOIN "Agent" g ON g.id = l."agentId" AND g.active
  JOIN "Source" s ON s.id = l."sourceId" AND s.active
  WHERE l."agentId" = $1`;

// Counts come from index-only scans of the partial index of visible articles, one per source.
export const COLLECTIONS = `
  SELECT s.id, s.name, c.count FROM (${VISIBLE_SOURCES}) s
  CROSS JOIN LATERAL (SELECT count(*)::int AS count FROM "Article" a WHERE a."sourceId" = s.id AND a.published AND a.active) c
  WHERE c.count > 0
  ORDER BY s.name, s.id`;

// Newest visible articles: the top 50 of each source from the partial index (index-only), merged;
// then title and the start of the content for the 50 kept ($2 = source or null).
export const RECENT = `
  SELECT a.id, a."sourceId", a.title, left(a.content, 1000) AS content
  FROM (
    SELECT top.id, top."updatedAt" FROM (${VISIBLE_SOURCES}) s
    CROSS JOIN LATERAL (
      SELECT a.id, a."updatedAt" FROM "Article" a
      WHERE a."sourceId" = s.id AND a.published AND a.active
      ORDER BY a."updatedAt" DESC, a.id LIMIT ${LIST_LIMIT}
    ) top
    WHERE $2::text IS NULL OR s.id = $2
    ORDER BY top."updatedAt" DESC, top.id LIMIT ${LIST_LIMIT}
  ) page
  JOIN "Article" a ON a.id = page.id
  ORDER BY page."updatedAt" DESC, page.id`;

// Searches look at a window of the newest visible articles first and widen it only when it holds
// too few matches (as the app): the GIN indexes lead with "updatedAt", so the time bound $5 (null:
// no bound) is answered in the index with the match. A window of n articles starts at the latest
// of each source's k-th newest update time, k = n / sources ($3 = n); null: it would hold them all.
export const WINDOW_START = `
  WITH vs AS MATERIALIZED (SELECT v.id FROM (${VISIBLE_SOURCES}) v WHERE $2::text IS NULL OR v.id = $2)
  SELECT max(n."updatedAt") AS start FROM vs CROSS JOIN LATERAL (
    SELECT a."updatedAt" FROM "Article" a WHERE a."sourceId" = vs.id AND a.published AND a.active
    ORDER BY a."updatedAt" DESC, a.id OFFSET (SELECT ceil($3::float8 / count(*))::int - 1 FROM vs) LIMIT 1) n`;
export const WINDOW_FACTORS = [40, 400];

// One branch of a search: visible articles ($1 agent, $2 source or null) in the window ($5)
// matching `condition`. With a custom plan, "$5 IS NULL" folds away and the bound reaches the index.
function visibleMatching(condition: string): string {
  return `SELECT a.id, a."updatedAt" FROM "Article" a
    WHERE a.published AND a.active
      AND a."sourceId" IN (SELECT v.id FROM (${VISIBLE_SOURCES}) v WHERE $2::text IS NULL OR v.id = $2)
      AND ($5::timestamp IS NULL OR a."updatedAt" >= $5::timestamp)
      AND ${condition}`;
}

const WORDS = `a."searchDocument" @@ websearch_to_tsquery('english', parley_unaccent($3))`;
const TITLE_CONTAINS = `a."searchTitle" LIKE '%' || parley_search_text($4) || '%'`;
const CONTENT_CONTAINS = `a."searchContent" LIKE '%' || parley_search_text($4) || '%'`;

// Search by relevance, as the app's help search (the JSON route with `q` and the search page):
// the newest SEARCH_CANDIDATES word matches ranked over the stored document, title substring
// matches breaking ties; then, only when the word matches do not fill the page, substring-only
// matches (the newest page of each branch), title matches first; recency breaks the remaining
// ties. One branch per index, so each bitmap heap scan re-checks only its own condition.
// $3 = query, $4 = query as a LIKE literal, or null when too short for trigrams; "candidates"
// tells whether the window held enough word matches.
const SEARCH_CANDIDATES = Math.max(RANK_CANDIDATES, LIST_LIMIT);
export const SEARCH_RELEVANCE = `
  WITH words AS MATERIALIZED (${visibleMatching(WORDS)} ORDER BY a."updatedAt" DESC, a.id LIMIT ${SEARCH_CANDIDATES}),
  hits AS (
    SELECT w.id, true AS word_match FROM words w
    UNION ALL
    SELECT t.id, false FROM (
      (${visibleMatching(`$4::text IS NOT NULL AND ${TITLE_CONTAINS}`)} ORDER BY a."updatedAt" DESC, a.id LIMIT ${LIST_LIMIT})
      UNION
      (${visibleMatching(`$4::text IS NOT NULL AND ${CONTENT_CONTAINS}`)} ORDER BY a."updatedAt" DESC, a.id LIMIT ${LIST_LIMIT})
    ) t
    WHERE (SELECT count(*) FROM words) < ${LIST_LIMIT} AND t.id NOT IN (SELECT w.id FROM words w)
  )
  SELECT a.id, a."sourceId", a.title, a.content, (SELECT count(*)::int FROM words) AS candidates
  FROM hits h JOIN "Article" a ON a.id = h.id
  ORDER BY h.word_match DESC,
    CASE WHEN h.word_match THEN ts_rank(a."searchDocument", websearch_to_tsquery('english', parley_unaccent($3)), 1) ELSE 0 END DESC,
    ($4::text IS NOT NULL AND ${TITLE_CONTAINS}) DESC, a."updatedAt" DESC, a.id
  LIMIT ${LIST_LIMIT}`;

// Knowledge search, by relevance, with the app's semantics: the newest RANK_CANDIDATES word
// matches, ranked over the stored document, title matches breaking ties. `tsquery` is SQL over
// $3 (the keywords); "candidates" tells whether the window held enough of them.
function rankedWords(tsquery: string, limit: string): string {
  return `
  WITH c AS MATERIALIZED (${visibleMatching(`a."searchDocument" @@ ${tsquery}`)} ORDER BY a."updatedAt" DESC, a.id LIMIT ${RANK_CANDIDATES})
  SELECT r.id, r.title, r.content, (SELECT count(*)::int FROM c) AS candidates FROM (
    SELECT a.id, a.title, a.content, a."updatedAt", ts_rank(a."searchDocument", ${tsquery}, 1) AS rank,
           ($4::text IS NOT NULL AND ${TITLE_CONTAINS}) AS in_title
    FROM c JOIN "Article" a ON a.id = c.id
  ) r
  ORDER BY r.rank DESC, r.in_title DESC, r."updatedAt" DESC, r.id LIMIT ${limit}`;
}

export const RANKED_ALL_WORDS = rankedWords(`websearch_to_tsquery('english', parley_unaccent($3))`, String(KNOWLEDGE_RESULTS));
// At least one word: the lexemes joined with OR (as the app's "any" match); $6 = limit.
export const RANKED_ANY_WORD = rankedWords(`replace(plainto_tsquery('english', parley_unaccent($3))::text, ' & ', ' | ')::tsquery`, "$6");

// Substring-only matches rank 0, so they are fetched only when fewer than KNOWLEDGE_RESULTS
// articles matched the words; those few are excluded by id ($6).
export const SUBSTRING_ONLY = `
  SELECT a.id, a.title, a.content FROM "Article" a
  WHERE a.id IN (SELECT u.id FROM ((${visibleMatching(TITLE_CONTAINS)}) UNION (${visibleMatching(CONTENT_CONTAINS)})) u)
    AND a.id <> ALL ($6::text[]) AND $3::text IS NOT NULL
  ORDER BY (${TITLE_CONTAINS}) DESC, a."updatedAt" DESC, a.id LIMIT ${KNOWLEDGE_RESULTS}`;

export const ARTICLE = `
  SELECT a.id, a."sourceId", s.name AS "sourceName", a.title, a.content, a."updatedAt"
  FROM "Article" a JOIN (${VISIBLE_SOURCES}) s ON s.id = a."sourceId"
  WHERE a.id = $2 AND a.published AND a.active`;

const AGENT_KEY = `SELECT "keyHash", "httpApiEnabled" FROM "Agent" WHERE id = $1 AND active`;

// The whole turn in one statement (one implicit transaction): the conversation, both messages and
// the month's usage counters.
export const STORE_TURN = `
  WITH conversation AS (
    INSERT INTO "Conversation" (id, "agentId", status, channel, "messageCount", "updatedAt")
    VALUES ($1, $2, 'active', 'api', 2, now()) RETURNING id
  ), messages AS (
    INSERT INTO "Message" (id, "conversationId", role, text, tokens, "toolCalls", "richContent", sequence)
    SELECT m.id, conversation.id, m.role::"MessageRole", m.text, m.tokens, m."toolCalls"::jsonb, m."richContent"::jsonb, m.sequence
    FROM conversation, (VALUES ($3, 'user', $4, 0, '[]', '[]', 0), ($5, 'agent', $6, $7::int, $8, $9, 1))
      AS m(id, role, text, tokens, "toolCalls", "richContent", sequence)
  ), usage AS (
    INSERT INTO "UsageMonth" ("agentId", month, conversations, tokens, turns, "updatedAt")
    VALUES ($2, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM'), 1, $7::int, 1, now())
    ON CONFLICT ("agentId", month) DO UPDATE
      SET conversations = "UsageMonth".conversations + 1, tokens = "UsageMonth".tokens + EXCLUDED.tokens,
          turns = "UsageMonth".turns + 1, "updatedAt" = now()
  )
  SELECT id FROM conversation`;

// "timestamp without time zone" columns hold UTC (as Prisma writes and reads them).
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (value) => new Date(`${value.replace(" ", "T")}Z`));

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { ...headers, "content-length": Buffer.byteLength(text) });
  response.end(text);
}

/** Markdown to plain text, the cheap way (headings, list markers, emphasis, links). */
function plainText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^\s{0,3}(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s?)/gm, "")
    .replace(/[*_`~]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** About EXCERPT_CHARS of the text, around the first occurrence of the query (or a word of it). */
function excerpt(markdown: string, query: string): string {
  const text = plainText(markdown);
  if (text.length <= EXCERPT_CHARS) return text;
  const lower = text.toLowerCase();
  const needle = query.toLowerCase();
  let at = needle ? lower.indexOf(needle) : -1;
  if (at < 0 && needle) {
    for (const word of needle.split(/\s+/)) {
      at = word.length > 2 ? lower.indexOf(word) : -1;
      if (at >= 0) break;
    }
  }
  let start = at < 0 ? 0 : Math.max(0, Math.min(at - EXCERPT_CHARS / 2, text.length - EXCERPT_CHARS));
  if (start > 0) start = text.indexOf(" ", start) + 1;
  let end = Math.min(text.length, start + EXCERPT_CHARS);
  if (end < text.length) end = text.lastIndexOf(" ", end);
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

interface ArticleRow {
  id: string;
  sourceId: string;
  title: string;
  content: string;
}

/**
 * A help read that found nothing may be an unknown or inactive agent (404) or an empty help
 * centre; anything found proves the agent visible, so the agent is read only in the first case.
 */
async function assertHelpAgent(pool: pg.Pool, agentId: string, found: number): Promise<void> {
  if (found === 0 && (await pool.query(AGENT_KEY, [agentId])).rowCount === 0) throw new HttpError(404, "Not found");
}

async function collections(pool: pg.Pool, agentId: string): Promise<unknown> {
  const { rows } = await pool.query(COLLECTIONS, [agentId]);
  await assertHelpAgent(pool, agentId, rows.length);
  return { data: { collections: rows } };
}

async function articles(pool: pg.Pool, agentId: string, params: URLSearchParams): Promise<unknown> {
  const q = (params.get("q") ?? "").trim();
  const source = params.get("source")?.trim() || null;
  if ([...q].length > QUERY_MAX_CHARS) throw new HttpError(400, "Invalid request");
  const pattern = [...q].length >= 3 ? escapeLike(q) : null;
  const rows = q
    ? await inWindows(pool, agentId, source, SEARCH_CANDIDATES, async (start) => {
        const found = (await pool.query<ArticleRow & { candidates: number }>(SEARCH_RELEVANCE, [agentId, source, q, pattern, start])).rows;
        return { rows: found, complete: (found[0]?.candidates ?? 0) >= SEARCH_CANDIDATES };
      })
    : (await pool.query<ArticleRow>(RECENT, [agentId, source])).rows;
  await assertHelpAgent(pool, agentId, rows.length);
  return {
    data: { articles: rows.map((row) => ({ id: row.id, sourceId: row.sourceId, title: row.title, excerpt: excerpt(row.content, q) })) },
  };
}

async function article(pool: pg.Pool, agentId: string, itemId: string): Promise<unknown> {
  const { rows } = await pool.query(ARTICLE, [agentId, itemId]);
  if (rows.length === 0) throw new HttpError(404, "Not found");
  return { data: rows[0] };
}

const STOP_WORDS = new Set(
  "a an and are as at be but by can do does for from how i if in into is it its me my no not of on or our please so the their them then there these they this to was we what when where which who why will with you your".split(
    " ",
  ),
);

function keywords(message: string): string[] {
  const words = message
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);
  return [...new Set(words.filter((word) => word.length > 1 && !STOP_WORDS.has(word)))];
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_MAX_BYTES) reject(new HttpError(413, "Payload too large"));
      else chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function newId(): string {
  return `c${randomBytes(12).toString("hex")}`;
}

/** `search` in the narrow window, then the wide one, then everywhere, until a window is complete. */
async function inWindows<Row>(
  pool: pg.Pool,
  agentId: string,
  source: string | null,
  needed: number,
  search: (start: Date | null) => Promise<{ rows: Row[]; complete: boolean }>,
): Promise<Row[]> {
  for (const factor of WINDOW_FACTORS) {
    const { rows } = await pool.query<{ start: Date | null }>(WINDOW_START, [agentId, source, factor * needed]);
    const start = rows[0]?.start ?? null;
    if (start === null) break;
    const result = await search(start);
    if (result.complete) return result.rows;
  }
  return (await search(null)).rows;
}

async function rankedSearch(pool: pg.Pool, agentId: string, sql: string, params: unknown[]): Promise<ArticleRow[]> {
  return inWindows(pool, agentId, null, RANK_CANDIDATES, async (start) => {
    const found = (
      await pool.query<ArticleRow & { candidates: number }>(sql, [agentId, null, ...params.slice(0, 2), start, ...params.slice(2)])
    ).rows;
    return { rows: found, complete: (found[0]?.candidates ?? 0) >= RANK_CANDIDATES };
  });
}

async function knowledgeSearch(pool: pg.Pool, agentId: string, words: string[]): Promise<ArticleRow[]> {
  const query = words.join(" ");
  const pattern = [...query].length >= 3 ? escapeLike(query) : null;
  let hits = await rankedSearch(pool, agentId, RANKED_ALL_WORDS, [query, pattern]);
  if (hits.length < KNOWLEDGE_RESULTS && pattern) {
    const more = await pool.query<ArticleRow>(SUBSTRING_ONLY, [agentId, null, query, pattern, null, hits.map((hit) => hit.id)]);
    hits = [...hits, ...more.rows].slice(0, KNOWLEDGE_RESULTS);
  }
  if (hits.length === 0 && words.length >= 3) {
    // As the app: a few OR-matched candidates, kept when they contain more than half of the words.
    const candidates = await rankedSearch(pool, agentId, RANKED_ANY_WORD, [query, null, KNOWLEDGE_RESULTS * 4]);
    const needed = Math.floor(words.length / 2) + 1;
    hits = candidates
      .map((hit, position) => {
        const text = `${hit.title}\n${hit.content}`.toLowerCase();
        return {
          hit,
          position,
          covered: words.filter((word) => text.includes(word.length <= 4 ? word : word.slice(0, Math.ceil(word.length * 0.75)))).length,
        };
      })
      .filter((candidate) => candidate.covered >= needed)
      .sort((a, b) => b.covered - a.covered || a.position - b.position)
      .slice(0, KNOWLEDGE_RESULTS)
      .map((candidate) => candidate.hit);
  }
  return hits;
}

async function message(pool: pg.Pool, agentId: string, request: IncomingMessage, appUrl: string): Promise<unknown> {
  const { rows } = await pool.query<{ keyHash: string | null; httpApiEnabled: boolean }>(AGENT_KEY, [agentId]);
  const agent = rows[0];
  if (!agent) throw new HttpError(404, "Agent not found");
  if (!agent.httpApiEnabled) throw new HttpError(403, "HTTP API disabled for this agent");
  const token = request.headers.authorization?.match(/^Bearer +(\S+) *$/i)?.[1];
  if (!token) throw new HttpError(401, "Missing bearer token");
  if (!agent.keyHash) throw new HttpError(401, "HTTP API key not configured");
  const presented = createHash("sha256").update(token).digest();
  if (!timingSafeEqual(presented, Buffer.from(agent.keyHash, "hex"))) throw new HttpError(401, "Invalid bearer token");

  let body: { message?: unknown };
  try {
    body = JSON.parse(await readBody(request));
  } catch {
    throw new HttpError(400, "Invalid request");
  }
  if (typeof body.message !== "string" || body.message.length === 0 || body.message.length > MESSAGE_MAX_CHARS) {
    throw new HttpError(400, "Invalid request");
  }

  const words = keywords(body.message);
  const hits = words.length > 0 ? await knowledgeSearch(pool, agentId, words) : [];
  const best = hits[0];
  const reply = best
    ? `From “${best.title}”: ${excerpt(best.content, words[0] ?? "")}`
    : "I'm sorry, I don't know the answer to that: I couldn't find it in our help articles.";
  const toolCalls = [{ name: "search_knowledge_base", args: { query: body.message } }];
  const richContent = best
    ? [
        {
          type: "articles",
          articles: hits.map((hit) => ({ id: hit.id, title: hit.title, url: `${appUrl}/help/${agentId}/articles/${hit.id}` })),
        },
      ]
    : [{ type: "buttons", buttons: [{ label: "Talk to a person", action: "handoff" }] }];
  // About four characters a token: an approximation, the app counts with a real tokenizer.
  const context = hits.reduce((sum, hit) => sum + hit.title.length + hit.content.length, 0);
  const tokenUsage = Math.ceil((body.message.length + context + reply.length) / 4);

  const stored = await pool.query<{ id: string }>(STORE_TURN, [
    newId(),
    agentId,
    newId(),
    body.message,
    newId(),
    reply,
    tokenUsage,
    JSON.stringify(toolCalls),
    JSON.stringify(richContent),
  ]);
  return {
    conversationId: stored.rows[0]!.id,
    reply,
    tokenUsage,
    toolCalls,
    richContent,
    handoffRequested: false,
    status: "active",
  };
}

const HELP_PATH = /^\/api\/agent\/([^/]+)\/help(?:\/articles(?:\/([^/]+))?)?$/;
const MESSAGES_PATH = /^\/api\/agent\/([^/]+)\/messages$/;

export function createBaselineServer(pool: pg.Pool, appUrl: string) {
  return createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://baseline");
    const help = request.method === "GET" ? HELP_PATH.exec(url.pathname) : null;
    const messages = request.method === "POST" ? MESSAGES_PATH.exec(url.pathname) : null;
    const headers = help ? HELP_HEADERS : JSON_HEADERS;
    try {
      if (help) {
        const agentId = decodeURIComponent(help[1]!);
        const isArticles = url.pathname.endsWith("/articles") || help[2] !== undefined;
        const body = help[2]
          ? await article(pool, agentId, decodeURIComponent(help[2]))
          : isArticles
            ? await articles(pool, agentId, url.searchParams)
            : await collections(pool, agentId);
        send(response, 200, body, headers);
      } else if (messages) {
        send(response, 200, await message(pool, decodeURIComponent(messages[1]!), request, appUrl), headers);
      } else {
        send(response, 404, { error: "Not found" }, headers);
      }
    } catch (error) {
      if (error instanceof HttpError) send(response, error.status, { error: error.message }, headers);
      else {
        console.error(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
        send(response, 500, { error: "Internal error" }, headers);
      }
    }
  });
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error("DATABASE_URL is required");
  const port = Number(process.env.PORT || 0);
  // The same pool size as the app's (packages/db openDatabase: 10).
  const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.BASELINE_POOL_SIZE || 10) });
  pool.on("error", () => {});
  const server = createBaselineServer(pool, process.env.APP_URL ?? `http://127.0.0.1:${port}`);
  server.keepAliveTimeout = 65_000;
  server.listen(port, "127.0.0.1", () => {
    const address = server.address();
    console.log(`listening ${typeof address === "object" && address ? address.port : port}`);
  });
  const shutdown = () => {
    server.close();
    void pool.end().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 2_000).unref();
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
