// Throwaway PostgreSQL databases for the reliability suite (@parley/testing/database: a fresh,
// migrated database on DATABASE_URL's server, dropped on close), seeded with the demo data, plus
// agents of our own and a snapshot of every table to prove that a request stored nothing.
import { randomBytes } from "node:crypto";
import { generateAgentKey } from "@parley/core/agents";
import { seed } from "@parley/core/demo";
import type { Database } from "@parley/db";
import { createTestDatabase } from "@parley/testing/database";
import { inject } from "vitest";
import { recordDatabase } from "./registry.ts";

export const ADMIN_EMAIL = "admin@example.com";
export const ADMIN_PASSWORD = "reliability-admin-password";
/** The seeded workspace and the sources the demo agent answers from (packages/core/src/demo/data.ts). */
const DEMO_WORKSPACE = "ws-demo";
const DEMO_SOURCES = ["src-start", "src-billing"];

export interface ServerDatabase extends Database {
  /** postgres:// URL of this database. */
  url: string;
  /** Its name on the server. */
  name: string;
}

/** A migrated, seeded throwaway database on the DATABASE_URL server; `close()` drops it. */
export async function createSeededDatabase(): Promise<ServerDatabase> {
  const db = await createTestDatabase({ poolSize: 5 });
  if (!db.url) {
    await db.close();
    throw new Error("The reliability suite needs DATABASE_URL (a PostgreSQL server)");
  }
  const name = new URL(db.url).pathname.slice(1);
  recordDatabase(inject("reliabilityRunDir"), name);
  await seed(db, { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD });
  return { ...db, url: db.url, name };
}

/**
 * The URL an app instance gets: the same database (optionally through another host:port, e.g. a
 * proxy), with an application_name so the test can find that instance's backends in pg_stat_activity.
 */
export function appDatabaseUrl(url: string, applicationName: string, via?: { host: string; port: number }): string {
  const parsed = new URL(url);
  if (via) {
    parsed.hostname = via.host;
    parsed.port = String(via.port);
  }
  parsed.searchParams.set("application_name", applicationName);
  return parsed.toString();
}

export interface TestAgent {
  id: string;
  key: string;
}

/**
 * A new agent of the demo workspace with the HTTP API on, linked to the demo sources, and its key
 * (core's generateAgentKey). The id is unique per run: the app's rate-limit windows in the shared
 * Redis are keyed by agent id, so no earlier run (or other test) can have used them.
 */
export async function createAgent(
  db: Database,
  label: string,
  fields: { engine?: "knowledge" | "llm"; monthlyConversationLimit?: number } = {},
): Promise<TestAgent> {
  const id = `rel-${label}-${randomBytes(5).toString("hex")}`;
  await db.prisma.agent.create({
    data: {
      id,
      workspaceId: DEMO_WORKSPACE,
      name: `Reliability ${label}`,
      httpApiEnabled: true,
      engine: fields.engine ?? "knowledge",
      monthlyConversationLimit: fields.monthlyConversationLimit ?? null,
      sources: { create: DEMO_SOURCES.map((sourceId) => ({ sourceId })) },
    },
  });
  const { key } = await generateAgentKey(db, id);
  return { id, key };
}

/** What an agent has stored: conversations, messages, and this month's usage counters. */
export async function agentRows(db: Database, agentId: string) {
  const [conversations, messages, usage] = await Promise.all([
    db.prisma.conversation.count({ where: { agentId } }),
    db.prisma.message.count({ where: { conversation: { agentId } } }),
    db.prisma.usageMonth.findMany({ where: { agentId }, select: { month: true, conversations: true, tokens: true, turns: true } }),
  ]);
  return { conversations, messages, usage };
}

/**
 * Every table's row count and a digest of its whole content, in one statement (one snapshot of
 * the database). Equal snapshots mean nothing was inserted, updated or deleted in between, except
 * in the `ignored` columns (by table) and tables.
 */
export async function createSnapshotter(
  db: Database,
  ignored: { tables?: readonly string[]; columns?: Readonly<Record<string, readonly string[]>> } = {},
): Promise<() => Promise<Record<string, string>>> {
  const tables = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations' ORDER BY 1`,
  );
  if (tables.length === 0) throw new Error("no tables to snapshot");
  const row = (name: string) => {
    const columns = ignored.columns?.[name] ?? [];
    return columns.length === 0 ? "t::text" : `(to_jsonb(t)${columns.map((column) => ` - '${column}'`).join("")})::text`;
  };
  const sql = tables
    .filter(({ name }) => !ignored.tables?.includes(name))
    .map(
      ({ name }) =>
        `SELECT '${name}' AS name, count(*)::text || ':' || md5(coalesce(string_agg(${row(name)}, '|' ORDER BY ${row(name)}), '')) AS state FROM "${name}" t`,
    )
    .join(" UNION ALL ");
  return async () => Object.fromEntries((await db.query<{ name: string; state: string }>(sql)).map((row) => [row.name, row.state]));
}
