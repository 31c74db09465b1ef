// The visitor's data: everything Parley holds about one visitor (one conversation, or every
// conversation of an email address in the workspace), exported as JSON or erased.
//
// Erasure keeps the rows that counts and charts read (conversations, messages with their tokens,
// usage months) and removes what identifies or quotes the visitor: identity and variables, every
// message's text, tool calls and rich content, tracking events, the team's note text, the bodies
// of stored webhook events and their receivers' answers, and stored idempotent responses.
import type { Database, Prisma } from "@parley/db";
import { z } from "zod";
import { recordAudit } from "../people/audit.ts";
import { assertCan, assertMayCall } from "../people/permissions.ts";
import { type AdminScope, rowId } from "../people/scope.ts";
import { AppError } from "../platform/errors.ts";
import { enforceRateLimit } from "../platform/ratelimit/index.ts";
import type { HttpResult } from "../platform/results.ts";
import { storableQuery } from "../platform/text.ts";
import type { ConversationContext } from "./context.ts";
import { CONVERSATIONS_ERRORS } from "./errors.ts";
import { VISITOR_DATA_EXPORTS_PER_HOUR, VISITOR_DATA_PAGE, VISITOR_ERASURES_PER_HOUR } from "./limits.ts";

const visitorEmail = z.string().trim().toLowerCase().max(320).pipe(z.email("Enter an email address"));

/** Whose data: one conversation, or every conversation of an email address. */
export const visitorTargetInput = z.union([
  z.object({ conversationId: rowId, email: z.undefined().optional() }).strict(),
  z.object({ email: visitorEmail, conversationId: z.undefined().optional() }).strict(),
]);
export type VisitorTarget = z.infer<typeof visitorTargetInput>;

/** The word typed to confirm an erasure (or, when erasing by email, the address itself). */
export const ERASE_CONFIRMATION_WORD = "ERASE";
const CONFIRMATION_TEXT = `Type ${ERASE_CONFIRMATION_WORD} or the visitor's email address to confirm`;

const confirmation = z.string().max(400);
/** Whose data, and the typed confirmation. */
export const eraseVisitorInput = z.union([
  z.object({ conversationId: rowId, email: z.undefined().optional(), confirmation }).strict(),
  z.object({ email: visitorEmail, conversationId: z.undefined().optional(), confirmation }).strict(),
]);

/** The export's query string (?conversationId=... or ?email=...), validated. */
export function parseVisitorTargetQuery(params: URLSearchParams): VisitorTarget {
  const result = visitorTargetInput.safeParse(storableQuery(params, { dropEmpty: true }));
  if (result.success) return result.data;
  throw new AppError("INVALID_REQUEST", { details: "Give either conversationId or email" });
}

/** The target's conversation ids in the workspace, newest first. A missing conversation is NOT_FOUND. */
async function targetConversationIds(db: Database | Prisma.TransactionClient, scope: AdminScope, target: VisitorTarget) {
  const client = "prisma" in db ? db.prisma : db;
  const inWorkspace = { agent: { workspaceId: scope.workspaceId } };
  const where: Prisma.ConversationWhereInput = target.conversationId
    ? { id: target.conversationId, ...inWorkspace }
    : { visitorEmail: { equals: target.email, mode: "insensitive" }, ...inWorkspace };
  const rows = await client.conversation.findMany({ where, select: { id: true }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  if (target.conversationId && rows.length === 0) throw new AppError(CONVERSATIONS_ERRORS.CONVERSATION_NOT_FOUND);
  return rows.map((row) => row.id);
}

const EXPORT_POLICY = { name: "visitor-data-export", limit: VISITOR_DATA_EXPORTS_PER_HOUR, windowSeconds: 3600 };
const ERASE_POLICY = { name: "visitor-data-erase", limit: VISITOR_ERASURES_PER_HOUR, windowSeconds: 3600 };
const ROLE_NAMES = { user: "visitor", agent: "agent", human: "team" } as const;

const exportSelect = {
  id: true,
  agentId: true,
  channel: true,
  status: true,
  visitorName: true,
  visitorEmail: true,
  visitorPhone: true,
  firstPageUrl: true,
  clientVariables: true,
  pageVariables: true,
  createdAt: true,
  updatedAt: true,
  erasedAt: true,
  agent: { select: { name: true } },
  messages: { select: { sequence: true, role: true, text: true, createdAt: true }, orderBy: { sequence: "asc" } },
  trackingEvents: { select: { event: true, properties: true, createdAt: true }, orderBy: { createdAt: "asc" } },
  rating: { select: { rating: true, comment: true, createdAt: true, updatedAt: true } },
} satisfies Prisma.ConversationSelect;

type ExportRow = Prisma.ConversationGetPayload<{ select: typeof exportSelect }>;

/** One conversation as the export writes it. */
export function exportedConversation(row: ExportRow) {
  return {
    id: row.id,
    agent: { id: row.agentId, name: row.agent.name },
    channel: row.channel,
    status: row.status,
    visitor: { name: row.visitorName, email: row.visitorEmail, phone: row.visitorPhone },
    firstPageUrl: row.firstPageUrl,
    clientVariables: row.clientVariables,
    pageVariables: row.pageVariables,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    erasedAt: row.erasedAt?.toISOString() ?? null,
    messages: row.messages.map((message) => ({
      sequence: message.sequence,
      from: ROLE_NAMES[message.role],
      text: message.text,
      createdAt: message.createdAt.toISOString(),
    })),
    trackingEvents: row.trackingEvents.map((event) => ({
      event: event.event,
      properties: event.properties,
      createdAt: event.createdAt.toISOString(),
    })),
    /** How the visitor rated the conversation after it was resolved (widget), if they did. */
    rating: row.rating
      ? {
          rating: row.rating.rating,
          comment: row.rating.comment,
          createdAt: row.rating.createdAt.toISOString(),
          updatedAt: row.rating.updatedAt.toISOString(),
        }
      : null,
  };
}

/**
 * The visitor's data as a JSON download, streamed a page of conversations at a time. Permission,
 * hourly limit and the target (a missing conversation is a 404) are checked before anything is sent.
 */
export async function exportVisitorData(ctx: ConversationContext, scope: AdminScope, target: VisitorTarget): Promise<HttpResult> {
  assertMayCall(scope, "GET /api/panel/visitor-data/export");
  const limitHeaders = await enforceRateLimit(ctx.limiters.configured(EXPORT_POLICY), scope.userId);
  const ids = await targetConversationIds(ctx.db, scope, target);
  await recordAudit(ctx.db.prisma, scope, {
    action: "visitor.exported",
    ...visitorAuditTarget(scope, target),
    detail: { conversations: ids.length },
  });
  const exportedAt = ctx.now();
  const name = target.conversationId ? `conversation-${target.conversationId.replace(/[^A-Za-z0-9_-]/g, "")}` : "email";
  return {
    status: 200,
    headers: {
      ...limitHeaders,
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="parley-visitor-${name}-${exportedAt.toISOString().slice(0, 10)}.json"`,
      "cache-control": "no-store",
    },
    stream: exportPieces(ctx.db, target, ids, exportedAt),
  };
}

async function* exportPieces(db: Database, target: VisitorTarget, ids: string[], exportedAt: Date): AsyncGenerator<string> {
  const head = { exportedAt: exportedAt.toISOString(), request: target };
  yield `${JSON.stringify(head).slice(0, -1)},"conversations":[`;
  for (let at = 0; at < ids.length; at += VISITOR_DATA_PAGE) {
    const page = ids.slice(at, at + VISITOR_DATA_PAGE);
    const rows = await db.prisma.conversation.findMany({ where: { id: { in: page } }, select: exportSelect });
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const [index, id] of page.entries()) {
      const row = byId.get(id);
      if (row) yield (at + index === 0 ? "\n" : ",\n") + JSON.stringify(exportedConversation(row));
    }
  }
  yield "\n]}\n";
}

/** The audit log names the conversation, never the visitor's email address (an erasure would leave it behind). */
function visitorAuditTarget(scope: AdminScope, target: VisitorTarget) {
  return target.conversationId
    ? {
        targetType: "visitor" as const,
        targetId: target.conversationId,
        targetLabel: `the visitor of conversation ${target.conversationId}`,
      }
    : { targetType: "visitor" as const, targetId: scope.workspaceId, targetLabel: "a visitor found by email address" };
}

/** Whether the typed confirmation allows the erasure: ERASE, or the email address being erased. */
export function erasureConfirmed(target: VisitorTarget, confirmation: string): boolean {
  const typed = confirmation.trim();
  if (typed === ERASE_CONFIRMATION_WORD) return true;
  return target.email !== undefined && typed.toLowerCase() === target.email;
}

/**
 * Erases the visitor's data in one transaction (all of it, or nothing on an error). Returns how
 * many conversations were erased (0 when no conversation has that email address).
 */
export async function eraseVisitorData(
  ctx: ConversationContext,
  scope: AdminScope,
  input: z.infer<typeof eraseVisitorInput>,
): Promise<{ conversations: number }> {
  assertCan(scope, "visitorData.manage");
  const { confirmation, ...target } = input;
  if (!erasureConfirmed(target, confirmation)) throw new AppError("INVALID_REQUEST", { details: CONFIRMATION_TEXT });
  await enforceRateLimit(ctx.limiters.configured(ERASE_POLICY), scope.userId);
  const now = ctx.now();
  return ctx.db.prisma.$transaction(
    async (tx) => {
      const ids = await targetConversationIds(tx, scope, target);
      await eraseConversations(tx, ids, now);
      await recordAudit(tx, scope, {
        action: "visitor.erased",
        ...visitorAuditTarget(scope, target),
        detail: { conversations: ids.length },
      });
      return { conversations: ids.length };
    },
    { timeout: 60_000 },
  );
}

/** Erases the conversations' visitor data inside the caller's transaction. */
export async function eraseConversations(tx: Prisma.TransactionClient, ids: readonly string[], now: Date): Promise<void> {
  for (let at = 0; at < ids.length; at += VISITOR_DATA_PAGE) {
    const page = ids.slice(at, at + VISITOR_DATA_PAGE);
    const where = { conversationId: { in: page } };
    await tx.conversation.updateMany({
      where: { id: { in: page } },
      data: {
        visitorName: null,
        visitorEmail: null,
        visitorPhone: null,
        firstPageUrl: null,
        clientVariables: {},
        pageVariables: {},
        erasedAt: now,
      },
    });
    await tx.message.updateMany({ where, data: { text: "", toolCalls: [], richContent: [] } });
    await tx.trackingEvent.deleteMany({ where });
    await tx.conversationNote.updateMany({ where, data: { text: "" } });
    // The visitor's words with their rating go; the rating itself stays for the counts.
    await tx.conversationRating.updateMany({ where, data: { comment: null } });
    // The gaps page's record of their unanswered words (its counts drop with it).
    await tx.knowledgeGap.deleteMany({ where });
    await scrubStoredResponses(tx, page);
  }
}

/**
 * Stored webhook events about the conversations keep their type and time and lose their data
 * (which quotes the visitor); their receivers' stored answers go too. Stored idempotent responses
 * that name them are deleted (a replay then runs as a new request).
 */
export async function scrubStoredResponses(tx: Prisma.TransactionClient, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const list = [...ids];
  await tx.$executeRaw`
    WITH touched AS (
      UPDATE "WebhookEvent" e
      SET "payload" = json_build_object(
        'type', e."payload"::json->>'type',
        'timestamp', e."payload"::json->>'timestamp',
        'data', json_build_object('conversation_id', c.id, 'erased', true))::text
      FROM unnest(${list}::text[]) AS c(id)
      WHERE strpos(e."payload", c.id) > 0
      RETURNING e."id"
    )
    UPDATE "WebhookAttempt" a SET "responseBody" = NULL
    FROM "WebhookDelivery" d
    WHERE a."deliveryId" = d."id" AND d."eventId" IN (SELECT "id" FROM touched)`;
  await tx.$executeRaw`
    DELETE FROM "IdempotencyRecord" r
    USING unnest(${list}::text[]) AS c(id)
    WHERE strpos(r."body"::text, c.id) > 0`;
}
