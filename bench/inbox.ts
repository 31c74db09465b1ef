// The inbox scenarios' data and session: a million messages (100,000 conversations of 10
// messages, spread over 90 days, a few visitor names, emails and client variables) made in SQL on
// the bench database, and a panel session cookie for a bench admin, minted as the app mints them
// (next-auth's JWT carrying the session's id, the Session row in the database).
import { randomUUID } from "node:crypto";
import type { Database } from "@parley/db";
import type { RssSampler } from "@parley/testing/processes";
import { encode } from "next-auth/jwt";

export const INBOX_CONVERSATIONS = 100_000;
export const INBOX_MESSAGES_PER_CONVERSATION = 10;
const ADMIN_ID = "bench_admin";

/** Words of the generated messages: common ones (in most conversations) and rare ones. */
const COMMON = ["invoice", "password", "refund", "account", "order", "login", "billing", "shipping", "plan", "error"];
const RARE = ["quetzal", "zanzibar", "obsidian", "marzipan", "tamarind"];

export const INBOX_SEARCH_QUERIES = [
  "invoice",
  "password reset",
  "refund order",
  "quetzal",
  "zanzibar billing",
  "obsid",
  "acme-corp-17",
  "user4242@example.com",
];

export async function loadInboxMessages(
  db: Database,
  agentId: string,
  log: (line: string) => void,
  conversations = INBOX_CONVERSATIONS,
): Promise<void> {
  const started = performance.now();
  await ensureBenchAdmin(db);
  // Conversations: every 10th with an email, every 7th with a company variable, every 20th escalated
  // (half of those still waiting for a person's reply: the list's queue order puts them first).
  await db.query(
    `INSERT INTO "Conversation" (id, "agentId", status, channel, "visitorName", "visitorEmail", "clientVariables", "messageCount", "escalatedAt", "waitingSince", "createdAt", "updatedAt")
     SELECT 'inbox_' || g, $1,
            (CASE WHEN g % 20 = 0 THEN 'escalated' ELSE 'active' END)::"ConversationStatus",
            (CASE WHEN g % 3 = 0 THEN 'widget' ELSE 'api' END)::"ConversationChannel",
            CASE WHEN g % 4 = 0 THEN 'Visitor ' || g END,
            CASE WHEN g % 10 = 2 THEN 'user' || g || '@example.com' END,
            CASE WHEN g % 7 = 0 THEN jsonb_build_object('company', 'acme-corp-' || (g % 50)) ELSE '{}'::jsonb END,
            $2,
            CASE WHEN g % 20 = 0 THEN now() - (g || ' minutes')::interval END,
            CASE WHEN g % 40 = 0 THEN now() - (g || ' minutes')::interval END,
            now() - ((g * 77) % (90 * 24 * 60) || ' minutes')::interval,
            now() - ((g * 77) % (90 * 24 * 60) || ' minutes')::interval + interval '5 minutes'
     FROM generate_series(1, $3) AS g`,
    [agentId, INBOX_MESSAGES_PER_CONVERSATION, conversations],
  );
  log(`  ${conversations.toLocaleString("en-US")} conversations in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  // Messages: alternate visitor and agent; each names two common words, one conversation in 5,000
  // a rare one.
  await db.query(
    `INSERT INTO "Message" (id, "conversationId", role, text, sequence, "createdAt")
     SELECT 'm_' || c || '_' || s, 'inbox_' || c,
            (CASE WHEN s % 2 = 0 THEN 'user' ELSE 'agent' END)::"MessageRole",
            'About my ' || ($3::text[])[1 + (c + s) % 10] || ' and the ' || ($3::text[])[1 + (c * 3 + s) % 10]
              || CASE WHEN c % 5000 = 0 AND s = 0 THEN ' ' || ($4::text[])[1 + (c / 5000) % 5] ELSE '' END
              || ', message ' || s || ' of conversation ' || c || '.',
            s,
            now() - ((c * 77) % (90 * 24 * 60) || ' minutes')::interval + (s || ' seconds')::interval
     FROM generate_series(1, $1) AS c, generate_series(0, $2 - 1) AS s`,
    [conversations, INBOX_MESSAGES_PER_CONVERSATION, COMMON, RARE],
  );
  await db.execScript(`ANALYZE "Conversation"; ANALYZE "Message";`);
  const [row] = await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM "Message" WHERE "conversationId" LIKE 'inbox_%'`);
  log(`  ${row?.count.toLocaleString("en-US")} messages in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** A Cookie header for the bench admin, valid for an hour, signed with the app's secret. */
/** The bench's panel admin (an owner), made once whichever step needs it first. */
async function ensureBenchAdmin(db: Database): Promise<void> {
  await db.query(
    `INSERT INTO "User" (id, "workspaceId", email, name, "passwordHash") VALUES ($1, 'bench_workspace', 'bench-admin@example.com', 'Bench admin', 'unused')
     ON CONFLICT (id) DO NOTHING`,
    [ADMIN_ID],
  );
}

export async function inboxSessionCookie(db: Database, secret: string): Promise<string> {
  await ensureBenchAdmin(db);
  const sessionId = `bench_session_${randomUUID()}`;
  await db.query(`INSERT INTO "Session" (id, "userId", "expiresAt") VALUES ($1, $2, now() + interval '1 hour')`, [sessionId, ADMIN_ID]);
  const token = await encode({ token: { userId: ADMIN_ID, workspaceId: "bench_workspace", sessionId }, secret, maxAge: 3600 });
  // The app runs on http://, so next-auth's cookie has no __Secure- prefix.
  return `next-auth.session-token=${token}`;
}

/** GET of the panel's list procedure (tRPC over HTTP, one call). */
export function inboxListPath(input: Record<string, unknown>): string {
  return `/api/trpc/conversations.list?input=${encodeURIComponent(JSON.stringify(input))}`;
}

/** One download of the whole inbox as CSV: its size, time and what it did to the app's memory. */
export interface ExportMeasurement {
  /** Messages in the inbox (the targets are set over a million). */
  messages: number;
  rows: number;
  megabytes: number;
  seconds: number;
  rssBeforeMb: number;
  /** The app's peak once a quarter of the rows had arrived (buffers and heap warmed up). */
  rssQuarterMb: number;
  rssPeakMb: number;
}

/**
 * Downloads the unfiltered CSV export (a million messages), reading it as it streams, while
 * `sampler` watches the app's resident memory: streamed, it stops growing once the first pages
 * have warmed the buffers up. Throws when the app answers anything but 200.
 */
export async function measureInboxExport(
  appUrl: string,
  cookie: string,
  sampler: RssSampler,
  conversations = INBOX_CONVERSATIONS,
): Promise<ExportMeasurement> {
  sampler.resetPeak();
  const rssBeforeMb = sampler.peakMb();
  const started = performance.now();
  const response = await fetch(`${appUrl}/api/panel/conversations/export?format=csv`, { headers: { cookie } });
  if (response.status !== 200 || !response.body) throw new Error(`inbox export answered ${response.status}: ${await response.text()}`);
  let bytes = 0;
  let lines = 0;
  let rssQuarterMb = 0;
  const messages = conversations * INBOX_MESSAGES_PER_CONVERSATION;
  const quarter = messages / 4;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
    if (rssQuarterMb === 0 && lines >= quarter) rssQuarterMb = sampler.peakMb();
  }
  return {
    messages,
    rows: lines - 1,
    megabytes: bytes / 1024 / 1024,
    seconds: (performance.now() - started) / 1000,
    rssBeforeMb,
    rssQuarterMb,
    rssPeakMb: sampler.peakMb(),
  };
}
