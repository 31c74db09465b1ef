// The inbox's reads: the conversation list (filters, the visitor's last message and identity,
// pages) and one conversation with its transcript and timeline. The writes are in inbox.ts.
import type { Database, Prisma } from "@parley/db";
import { z } from "zod";
import { assertCan } from "../../people/permissions.ts";
import { type AdminScope, rowId } from "../../people/scope.ts";
import { teamMemberName } from "../../people/team.ts";
import { AppError } from "../../platform/errors.ts";
import { enforceRateLimit } from "../../platform/ratelimit/index.ts";
import type { RateLimiters } from "../../platform/ratelimit/types.ts";
import { CONVERSATIONS_ERRORS } from "../errors.ts";
import {
  INBOX_SEARCH_MAX_CHARS,
  INBOX_SEARCHES_PER_MINUTE,
  PANEL_CONVERSATIONS_MAX_PER_PAGE,
  PANEL_CONVERSATIONS_PER_PAGE,
} from "../limits.ts";
import { ratingValueInput, ratingWhere } from "../rating.ts";
import { type ConversationRow, conversationSelect, messageSelect, toConversation, toMessage } from "./conversation-rows.ts";
import { noteSelect, toNote } from "./notes.ts";
import { findInQueueOrder } from "./queue.ts";
import { searchConversationIds } from "./search.ts";
import type { ActivityKind } from "./transitions.ts";
import { unreadIds } from "./unread.ts";

export type { ConversationMessage } from "./conversation-rows.ts";

/** The latest tracking events shown with a conversation. */
const TRACKING_EVENTS_SHOWN = 200;

/** Characters of the last message shown in the list. */
const PREVIEW_CHARS = 200;

export const conversationStatusInput = z.enum(["active", "escalated", "resolved"]);

/** "mine": assigned to the signed-in person; "unassigned"; or a team member's id. Absent: all. */
export const assigneeFilterInput = z.union([z.literal("mine"), z.literal("unassigned"), rowId]);

export const listConversationsInput = z
  .object({
    agentId: rowId.optional(),
    status: conversationStatusInput.optional(),
    assignee: assigneeFilterInput.optional(),
    channel: z.enum(["api", "widget"]).optional(),
    /** Only the conversations the visitor rated so (their standing rating). */
    rating: ratingValueInput.optional(),
    /** true: only the team's test chats (the agent page's "Try it"); absent or false: only real ones. */
    test: z.boolean().optional(),
    /** Started at or after / before these times. */
    createdFrom: z.coerce.date().optional(),
    createdTo: z.coerce.date().optional(),
    /** Words of the messages, or part of the visitor's name, email, phone, first page or variables. */
    q: z.string().trim().max(INBOX_SEARCH_MAX_CHARS).optional(),
    limit: z.number().int().min(1).max(PANEL_CONVERSATIONS_MAX_PER_PAGE).default(PANEL_CONVERSATIONS_PER_PAGE),
    /** The `nextCursor` of the previous page. */
    cursor: rowId.nullish(),
  })
  .default({ limit: PANEL_CONVERSATIONS_PER_PAGE });

type ConversationFilters = Omit<z.infer<typeof listConversationsInput>, "limit" | "cursor" | "q">;

/** The inbox's filters (all but the search words) over the person's workspace. */
export function filterWhere(scope: AdminScope, input: ConversationFilters): Prisma.ConversationWhereInput {
  const where: Prisma.ConversationWhereInput = { agent: { workspaceId: scope.workspaceId } };
  const assigneeId = assigneeIdOf(scope, input.assignee);
  if (assigneeId !== undefined) where.assigneeId = assigneeId;
  if (input.agentId) where.agentId = input.agentId;
  if (input.status) where.status = input.status;
  if (input.channel) where.channel = input.channel;
  if (input.rating) Object.assign(where, ratingWhere(input.rating));
  where.test = input.test ?? false;
  if (input.createdFrom || input.createdTo) where.createdAt = { gte: input.createdFrom, lt: input.createdTo };
  return where;
}

/** The assignee filter as a column value: undefined (all), null (unassigned) or a person's id. */
export function assigneeIdOf(scope: AdminScope, filter: z.infer<typeof assigneeFilterInput> | undefined): string | null | undefined {
  if (filter === undefined) return undefined;
  if (filter === "mine") return scope.userId;
  if (filter === "unassigned") return null;
  return filter;
}

/** A search reads the message index: each counts, per person, a batch's calls one by one. */
const INBOX_SEARCHES_POLICY = { name: "inbox-searches", limit: INBOX_SEARCHES_PER_MINUTE, windowSeconds: 60 };

/**
 * In queue order (queue.ts: the visitor waiting longest first, then the most recently active);
 * page through with `cursor`. With `q`, only the conversations that match, most recently active first.
 */
export async function listConversations(
  deps: { db: Database; limiters: RateLimiters },
  scope: AdminScope,
  input: z.infer<typeof listConversationsInput>,
) {
  assertCan(scope, "inbox.read");
  const { db } = deps;
  const assigneeId = assigneeIdOf(scope, input.assignee);
  let rows: ConversationRow[];
  if (input.q) {
    await enforceRateLimit(deps.limiters.configured(INBOX_SEARCHES_POLICY), scope.userId);
    const ids = await searchConversationIds(
      db,
      input.q,
      { workspaceId: scope.workspaceId, ...input, assigneeId, cursor: input.cursor ?? null },
      input.limit + 1,
    );
    const found = await db.prisma.conversation.findMany({ where: { id: { in: ids } }, select: conversationSelect });
    const byId = new Map(found.map((row) => [row.id, row]));
    rows = ids.flatMap((id) => byId.get(id) ?? []);
  } else {
    const cursor = input.cursor
      ? await db.prisma.conversation.findFirst({
          where: { id: input.cursor, agent: { workspaceId: scope.workspaceId } },
          select: { id: true, waitingSince: true, updatedAt: true },
        })
      : null;
    // A cursor that names no conversation of the workspace (erased meanwhile) ends the list.
    rows =
      input.cursor && !cursor
        ? []
        : await findInQueueOrder(
            (args) => db.prisma.conversation.findMany({ ...args, select: conversationSelect }),
            filterWhere(scope, input),
            cursor,
            input.limit + 1,
          );
  }
  const page = rows.slice(0, input.limit);
  const previews = await lastMessages(db, page);
  const unread = await unreadIds(
    db,
    scope.userId,
    page.map((row) => ({ id: row.id, lastVisitorAt: previews.get(row.id)?.lastVisitorMessage?.createdAt ?? null })),
  );
  return {
    items: page.map((row) => ({
      ...toConversation(row),
      ...(previews.get(row.id) ?? { lastMessage: null, lastVisitorMessage: null }),
      unread: unread.has(row.id),
    })),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

interface Preview {
  role: "user" | "agent" | "human";
  text: string;
  createdAt: Date;
}

/**
 * Each conversation's last message and the visitor's last message, in one statement: two
 * index-ordered lookups per conversation on (conversationId, sequence).
 */
async function lastMessages(db: Database, rows: ReadonlyArray<{ id: string; messageCount: number }>) {
  const ids = rows.filter((row) => row.messageCount > 0).map((row) => row.id);
  const result = new Map<string, { lastMessage: Preview | null; lastVisitorMessage: Preview | null }>();
  if (ids.length === 0) return result;
  const found = await db.prisma.$queryRaw<
    Array<{
      id: string;
      lastRole: Preview["role"] | null;
      lastText: string | null;
      lastAt: Date | null;
      userText: string | null;
      userAt: Date | null;
    }>
  >`
    SELECT c."id",
           l."role"::text AS "lastRole", left(l."text", ${PREVIEW_CHARS}) AS "lastText", l."createdAt" AS "lastAt",
           left(u."text", ${PREVIEW_CHARS}) AS "userText", u."createdAt" AS "userAt"
    FROM unnest(${ids}::text[]) AS c("id")
    LEFT JOIN LATERAL (
      SELECT m."role", m."text", m."createdAt" FROM "Message" m WHERE m."conversationId" = c."id" ORDER BY m."sequence" DESC LIMIT 1
    ) l ON true
    LEFT JOIN LATERAL (
      SELECT m."text", m."createdAt" FROM "Message" m
      WHERE m."conversationId" = c."id" AND m."role" = 'user' ORDER BY m."sequence" DESC LIMIT 1
    ) u ON true`;
  for (const row of found) {
    result.set(row.id, {
      lastMessage:
        row.lastRole && row.lastText !== null && row.lastAt ? { role: row.lastRole, text: row.lastText, createdAt: row.lastAt } : null,
      lastVisitorMessage: row.userText !== null && row.userAt ? { role: "user", text: row.userText, createdAt: row.userAt } : null,
    });
  }
  return result;
}

export async function getConversation(db: Database, scope: AdminScope, id: string) {
  assertCan(scope, "inbox.read");
  const row = await db.prisma.conversation.findFirst({
    where: { id, agent: { workspaceId: scope.workspaceId } },
    select: {
      ...conversationSelect,
      clientVariables: true,
      pageVariables: true,
      messages: { select: messageSelect, orderBy: { sequence: "asc" } },
      // Widget tracking events, shown in the timeline between the messages.
      trackingEvents: {
        select: { id: true, event: true, properties: true, createdAt: true },
        orderBy: { createdAt: "desc" },
        take: TRACKING_EVENTS_SHOWN,
      },
      notes: { select: noteSelect, orderBy: { createdAt: "asc" } },
      activity: {
        select: {
          id: true,
          kind: true,
          createdAt: true,
          actor: { select: { name: true, email: true } },
          assignee: { select: { name: true, email: true } },
        },
        orderBy: { createdAt: "asc" },
      },
    },
  });
  if (!row) throw new AppError(CONVERSATIONS_ERRORS.CONVERSATION_NOT_FOUND);
  const { messages, clientVariables, pageVariables, trackingEvents, activity, notes, ...conversation } = row;
  return {
    ...toConversation(conversation),
    clientVariables: clientVariables as Record<string, string>,
    pageVariables: pageVariables as Record<string, string>,
    messages: messages.map(toMessage),
    notes: notes.map(toNote),
    trackingEvents: trackingEvents.reverse().map((event) => ({ ...event, properties: event.properties as Record<string, unknown> })),
    activity: activity.map(({ actor, assignee, kind, ...entry }) => ({
      ...entry,
      kind: kind as ActivityKind,
      actorName: actor ? teamMemberName(actor) : null,
      assigneeName: assignee ? teamMemberName(assignee) : null,
    })),
  };
}

/**
 * Escalations waiting for a person: escalated and assigned to nobody (a taken-over conversation has
 * its person). The navigation's count, with the oldest wait.
 */
export async function waitingEscalations(db: Database, scope: AdminScope) {
  assertCan(scope, "inbox.read");
  const where: Prisma.ConversationWhereInput = {
    agent: { workspaceId: scope.workspaceId },
    status: "escalated",
    assigneeId: null,
    test: false,
  };
  const [count, oldest] = await Promise.all([
    db.prisma.conversation.count({ where }),
    db.prisma.conversation.findFirst({ where, orderBy: { escalatedAt: "asc" }, select: { escalatedAt: true } }),
  ]);
  return { count, oldestEscalatedAt: oldest?.escalatedAt ?? null };
}
