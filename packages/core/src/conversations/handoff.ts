// What the visitor is told once a person has been asked for, in one place for every channel (the
// widget's notices, the reply of an escalated turn on the HTTP API and the widget, so also the
// stored message that webhooks carry). A person "has joined" only when they took the conversation
// over or replied (Conversation.joinedById); an assignment alone tells the visitor nothing. Until a
// person joins, the visitor is told what is true: a person will reply here, and how soon the team
// usually replies, measured from its recent handoffs (no number when there are too few of them).
import type { Database } from "@parley/db";
import { Prisma } from "@parley/db";
import { HANDOFF_REPLY_TIME_MIN_SAMPLES, HANDOFF_REPLY_TIME_SAMPLES, HANDOFF_REPLY_TIME_WINDOW_DAYS } from "./limits.ts";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Every sentence the visitor may read about a person (exact texts, asserted by the tests). */
export const HANDOFF_TEXTS = {
  joined: (person: string) => `${person} from our team has joined the conversation.`,
  waiting: "A person will reply here.",
  waitingWithin: (within: string) => `A person will reply here; usually within ${within}.`,
  /** The escalated turn's reply: the message is kept for the person (DESIGN: "and says so"). */
  added: "Thanks, your message has been added to the conversation.",
  personWillReply: (person: string) => `${person} will reply here.`,
} as const;

/** Who the visitor talks to once a person was asked for. */
export interface HandoffFacts {
  /** The public name of the team member who joined (took over or replied); null: none has yet. */
  person: string | null;
  /** How long the team's first reply after a handoff usually takes (ms); null: not enough data. */
  typicalReplyMs: number | null;
}

/** "4 minutes", "1 hour", "2 days": rounded up, so "within" stays true for the median. */
export function formatWithin(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / MINUTE_MS));
  if (minutes < 60) return minutes === 1 ? "1 minute" : `${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  if (hours < 48) return hours === 1 ? "1 hour" : `${hours} hours`;
  return `${Math.ceil(hours / 24)} days`;
}

/** The widget's notice for an escalated conversation: who joined, else when a person replies. */
export function handoffNotice(facts: HandoffFacts): string {
  if (facts.person) return HANDOFF_TEXTS.joined(facts.person);
  return facts.typicalReplyMs === null ? HANDOFF_TEXTS.waiting : HANDOFF_TEXTS.waitingWithin(formatWithin(facts.typicalReplyMs));
}

/** The reply of a turn in an escalated conversation (the engine does not answer it). */
export function escalatedReply(facts: HandoffFacts): string {
  const next = facts.person ? HANDOFF_TEXTS.personWillReply(facts.person) : handoffNotice(facts);
  return `${HANDOFF_TEXTS.added} ${next}`;
}

/**
 * The median time from a handoff to the team's first reply, over the workspace's latest handoffs
 * (at most HANDOFF_REPLY_TIME_SAMPLES, of the last HANDOFF_REPLY_TIME_WINDOW_DAYS) that a person
 * answered; null when fewer than HANDOFF_REPLY_TIME_MIN_SAMPLES were. A handoff nobody answered has
 * no reply time and is left out (the visitor may have left). The median, not the mean: one
 * conversation answered the next morning does not move it. The latest handoffs are picked first,
 * so each turn reads at most that many conversations' first replies, however busy the workspace.
 */
export async function typicalReplyMs(db: Database, workspaceId: string, now: Date): Promise<number | null> {
  const since = new Date(now.getTime() - HANDOFF_REPLY_TIME_WINDOW_DAYS * DAY_MS);
  const rows = await db.prisma.$queryRaw<Array<{ median: number | null; samples: number }>>(Prisma.sql`
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM (first."at" - c."escalatedAt")) * 1000) AS "median",
           count(*)::int AS "samples"
    FROM (
      SELECT c."id", c."escalatedAt"
      FROM "Conversation" c
      JOIN "Agent" a ON a."id" = c."agentId"
      WHERE a."workspaceId" = ${workspaceId} AND c."test" = false
        AND c."escalatedAt" >= (${since.toISOString()}::timestamptz AT TIME ZONE 'UTC')
        AND c."escalatedAt" <= (${now.toISOString()}::timestamptz AT TIME ZONE 'UTC')
      ORDER BY c."escalatedAt" DESC
      LIMIT ${HANDOFF_REPLY_TIME_SAMPLES}
    ) c
    JOIN LATERAL (
      SELECT min(m."createdAt") AS "at" FROM "Message" m
      WHERE m."conversationId" = c."id" AND m."role" = 'human' AND m."createdAt" >= c."escalatedAt"
    ) first ON first."at" IS NOT NULL`);
  const row = rows[0];
  if (!row || row.median === null || row.samples < HANDOFF_REPLY_TIME_MIN_SAMPLES) return null;
  return Number(row.median);
}

/**
 * What the visitor of one conversation is told now: null while the agent answers (not escalated),
 * else the notice (who joined, or when a person replies).
 */
export async function visitorNotice(
  db: Database,
  conversation: { workspaceId: string; status: string; person: string | null },
  now: Date,
): Promise<string | null> {
  if (conversation.status !== "escalated") return null;
  if (conversation.person) return handoffNotice({ person: conversation.person, typicalReplyMs: null });
  return handoffNotice({ person: null, typicalReplyMs: await typicalReplyMs(db, conversation.workspaceId, now) });
}
