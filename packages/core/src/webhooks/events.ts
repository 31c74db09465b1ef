// The outbox side of webhooks: an event is recorded with the change that caused it, in the same
// transaction, as one WebhookEvent row (the exact JSON body to send) plus one WebhookDelivery row
// per enabled endpoint of the workspace that takes its type and covers its agents. One SQL
// statement per change, whatever the number of events; no endpoint, no rows. The delivery worker
// does the rest.
import { randomBytes, randomUUID } from "node:crypto";
import type { Prisma } from "@parley/db";
import type { WebhookEventType } from "./types.ts";

export interface WebhookEventInput {
  type: WebhookEventType;
  data: Record<string, unknown>;
}

/** What recording needs of a transaction client (a Prisma transaction or the client itself). */
export type WebhookTx = Pick<Prisma.TransactionClient, "$executeRaw">;

export interface EventScope {
  /** The workspace, or an agent of it (the workspace is then looked up in the same statement). */
  workspaceId?: string;
  agentId?: string;
  /** The agents the events are about, matched against endpoints that cover only some agents. */
  agentIds: readonly string[];
}

let sequence = 0;

/**
 * A new event id, also the `webhook-id` of its deliveries: "evt_" + time (ms, base 36) + a
 * per-process counter + random, so ids sort by creation and never repeat.
 */
export function newEventId(now = new Date()): string {
  sequence = (sequence + 1) % 36 ** 4;
  return `evt_${now.getTime().toString(36).padStart(9, "0")}${sequence.toString(36).padStart(4, "0")}${randomBytes(8).toString("hex")}`;
}

/** A delivery id, "whd_" + 32 hex digits (the same form the recording SQL generates). */
export function newDeliveryId(): string {
  return `whd_${randomUUID().replaceAll("-", "")}`;
}

/** The JSON body of an event: {type, timestamp, data}, in this key order. */
export function eventBody(type: string, timestamp: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: timestamp.toISOString(), data });
}

/**
 * Records the events in the caller's transaction. Returns the number of deliveries queued (0 when no
 * endpoint takes them: no row is written then).
 */
export async function recordWebhookEvents(
  tx: WebhookTx,
  scope: EventScope,
  events: readonly WebhookEventInput[],
  now: Date,
): Promise<number> {
  if (events.length === 0) return 0;
  if (!scope.workspaceId && !scope.agentId) throw new Error("recordWebhookEvents needs a workspaceId or an agentId");
  const ids = events.map(() => newEventId(now));
  const types = events.map((event) => event.type);
  const bodies = events.map((event) => eventBody(event.type, now, event.data));
  const at = now.toISOString();
  return tx.$executeRaw`
    WITH "input" AS (
      SELECT * FROM unnest(${ids}::text[], ${types}::text[], ${bodies}::text[]) WITH ORDINALITY AS t("id", "type", "payload", "position")
    ), "scope" AS (
      SELECT COALESCE(${scope.workspaceId ?? null}::text, (SELECT "workspaceId" FROM "Agent" WHERE "id" = ${scope.agentId ?? null}::text)) AS "workspaceId"
    ), "targets" AS (
      SELECT i."id" AS "eventId", e."id" AS "endpointId"
      FROM "input" i
      JOIN "WebhookEndpoint" e ON e."workspaceId" = (SELECT "workspaceId" FROM "scope")
      WHERE e."enabled"
        AND i."type" = ANY(e."eventTypes")
        AND (e."allAgents" OR e."agentIds" && ${[...scope.agentIds]}::text[])
    ), "events" AS (
      INSERT INTO "WebhookEvent" ("id", "workspaceId", "type", "payload", "createdAt")
      SELECT i."id", (SELECT "workspaceId" FROM "scope"), i."type", i."payload", (${at}::timestamptz AT TIME ZONE 'UTC')
      FROM "input" i
      WHERE EXISTS (SELECT 1 FROM "targets" t WHERE t."eventId" = i."id")
      ORDER BY i."position"
      RETURNING "id"
    )
    INSERT INTO "WebhookDelivery" ("id", "eventId", "endpointId", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt")
    SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), t."eventId", t."endpointId", 'pending', 0,
      (${at}::timestamptz AT TIME ZONE 'UTC'), (${at}::timestamptz AT TIME ZONE 'UTC'), (${at}::timestamptz AT TIME ZONE 'UTC')
    FROM "targets" t
    JOIN "events" ev ON ev."id" = t."eventId"`;
}

// Payload builders: the `data` of each event type (documented in docs/integrators/webhooks.md).

export interface ConversationRef {
  id: string;
  agentId: string;
  channel: "api" | "widget";
  status: "active" | "escalated";
  visitor: { name: string | null; email: string | null; phone: string | null };
}

export interface MessageRef {
  role: "user" | "agent" | "human";
  text: string;
  sequence: number;
  createdAt: Date;
  tokenUsage?: number;
  toolCalls?: unknown[];
  richContent?: unknown[];
}

export function conversationCreated(
  conversation: ConversationRef,
  extra: { clientVariables: Record<string, string>; createdAt: Date },
): WebhookEventInput {
  return {
    type: "conversation.created",
    data: { conversation: { ...conversation, clientVariables: extra.clientVariables, createdAt: extra.createdAt.toISOString() } },
  };
}

export function conversationMessage(
  conversation: ConversationRef,
  messages: MessageRef[],
  turn?: { handoffRequested: boolean; channel: "widget" | "voice" },
): WebhookEventInput {
  return {
    type: "conversation.message",
    data: {
      conversation,
      messages: messages.map((message) => ({ ...message, createdAt: message.createdAt.toISOString() })),
      ...(turn ? { handoffRequested: turn.handoffRequested, channel: turn.channel } : {}),
    },
  };
}

export function conversationEscalated(conversation: ConversationRef): WebhookEventInput {
  return { type: "conversation.escalated", data: { conversation, reason: "handoff_requested" } };
}

export function conversationStatusChanged(
  conversation: ConversationRef,
  previousStatus: ConversationRef["status"],
  changedBy: "turn" | "admin",
): WebhookEventInput {
  return { type: "conversation.status_changed", data: { conversation, previousStatus, status: conversation.status, changedBy } };
}

export interface TeamMemberRef {
  id: string;
  name: string;
}

export function conversationAssigned(
  conversation: ConversationRef,
  assignee: TeamMemberRef | null,
  assignedBy: TeamMemberRef | null,
): WebhookEventInput {
  return { type: "conversation.assigned", data: { conversation, assignee, assignedBy } };
}

export function conversationResolved(conversation: ConversationRef, resolvedBy: TeamMemberRef | null): WebhookEventInput {
  return { type: "conversation.resolved", data: { conversation, resolvedBy } };
}

export function conversationRated(
  conversation: ConversationRef,
  rating: { rating: "good" | "okay" | "bad"; comment: string | null; ratedAt: Date; previousRating: "good" | "okay" | "bad" | null },
): WebhookEventInput {
  return {
    type: "conversation.rated",
    data: {
      conversation,
      rating: rating.rating,
      previousRating: rating.previousRating,
      comment: rating.comment,
      ratedAt: rating.ratedAt.toISOString(),
    },
  };
}

export interface ArticleRef {
  id: string;
  sourceId: string;
  title: string;
  publishedAt: Date | null;
  /** The agents whose help centre shows the article's source. */
  agentIds: string[];
}

export function articlePublication(article: ArticleRef, published: boolean): WebhookEventInput {
  return {
    type: published ? "help.article.published" : "help.article.unpublished",
    data: { article: { ...article, published, publishedAt: article.publishedAt?.toISOString() ?? null } },
  };
}
