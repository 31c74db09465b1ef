// The inbox's writes: a person takes a conversation over, hands it back, resolves it, assigns it,
// or replies (which takes it over first when the agent holds it). Each change runs in one
// transaction with the conversation's row locked, writes its timeline entries and webhook events
// there, and is announced live after the commit: to the visitor's widget (status, the name of the
// person who joined, what the visitor is told, the reply) and to every open panel of the workspace.
// The visitor hears that a person joined only when one takes over or replies (handoff.ts).
import type { Database, Prisma } from "@parley/db";
import { z } from "zod";
import { PEOPLE_ERRORS } from "../../people/errors.ts";
import { assertCan, type InboxPermission } from "../../people/permissions.ts";
import { type AdminScope, rowId } from "../../people/scope.ts";
import { publicName, teamMemberName } from "../../people/team.ts";
import { AppError } from "../../platform/errors.ts";
import { type ConversationState, wireStatus } from "../../platform/wire-status.ts";
import {
  type ConversationRef,
  conversationAssigned,
  conversationMessage,
  conversationResolved,
  conversationStatusChanged,
  recordWebhookEvents,
  type TeamMemberRef,
  type WebhookEventInput,
} from "../../webhooks/events.ts";
import { CONVERSATIONS_ERRORS } from "../errors.ts";
import { visitorNotice } from "../handoff.ts";
import { MESSAGE_MAX_CHARS } from "../limits.ts";
import { type LiveBus, publishInbox, publishLive } from "../live.ts";
import { closingOf } from "../rating.ts";
import { toWireMessage } from "../wire-message.ts";
import { conversationSelect, messageSelect, toConversation, toMessage } from "./conversation-rows.ts";
import { type InboxTransition, planTransition, replyTakesOver, type TransitionPlan } from "./transitions.ts";

export const conversationIdInput = z.object({ id: rowId });
export const replyInput = z.object({
  id: rowId,
  text: z
    .string()
    .max(MESSAGE_MAX_CHARS)
    .refine((value) => value.trim().length > 0, "Write a reply"),
});
/** `assigneeId` null: unassigned. */
export const assignInput = z.object({ id: rowId, assigneeId: rowId.nullable() });

type Tx = Prisma.TransactionClient;

interface LockedConversation {
  id: string;
  agentId: string;
  status: ConversationState;
  assigneeId: string | null;
  joinedById: string | null;
}

/** The conversation, of this workspace only, locked until the transaction ends. */
async function lockConversation(tx: Tx, workspaceId: string, id: string): Promise<LockedConversation> {
  const rows = await tx.$queryRaw<LockedConversation[]>`
    SELECT c."id", c."agentId", c."status"::text AS "status", c."assigneeId", c."joinedById"
    FROM "Conversation" c
    JOIN "Agent" a ON a."id" = c."agentId"
    WHERE c."id" = ${id} AND a."workspaceId" = ${workspaceId}
    FOR UPDATE OF c`;
  const row = rows[0];
  if (!row) throw new AppError(CONVERSATIONS_ERRORS.CONVERSATION_NOT_FOUND);
  return row;
}

/** A team member of the workspace as events name them; TEAM_MEMBER_NOT_FOUND for anyone else. */
async function teamMember(tx: Tx, workspaceId: string, userId: string): Promise<TeamMemberRef & { publicName: string }> {
  const user = await tx.user.findFirst({ where: { id: userId, workspaceId }, select: { id: true, name: true, email: true } });
  if (!user) throw new AppError(PEOPLE_ERRORS.TEAM_MEMBER_NOT_FOUND);
  return { id: user.id, name: teamMemberName(user), publicName: publicName(user) };
}

/** What a committed change announces live. */
interface Announcement {
  workspaceId: string;
  conversationId: string;
  /** For the visitor's widget: the public status and the person who joined (null: none has). */
  status: { status: "active" | "escalated"; person: string | null } | null;
  /** It was resolved, or left resolved: the widget shows or drops the closing line and the rating. */
  closingChanged?: boolean;
}

/** Applies a plan to the locked row: the update, its timeline entries, its webhook events. */
async function applyPlan(
  tx: Tx,
  scope: AdminScope,
  current: LockedConversation,
  plan: TransitionPlan,
  now: Date,
): Promise<{ row: Prisma.ConversationGetPayload<{ select: typeof conversationSelect }>; person: string | null }> {
  const row = await tx.conversation.update({
    where: { id: current.id },
    data: {
      status: plan.status,
      assigneeId: plan.assigneeId,
      joinedById: plan.joinedById,
      ...(plan.escalatedAt ? { escalatedAt: plan.escalatedAt } : {}),
      ...(plan.resolvedAt !== undefined ? { resolvedAt: plan.resolvedAt } : {}),
      ...(plan.waitingSince !== undefined ? { waitingSince: plan.waitingSince } : {}),
      updatedAt: now,
    },
    select: conversationSelect,
  });
  await tx.conversationActivity.createMany({
    data: plan.activities.map((activity) => ({ conversationId: current.id, ...activity, createdAt: now })),
  });
  const actor = await teamMember(tx, scope.workspaceId, scope.userId);
  const assignee =
    plan.assigneeId === null ? null : plan.assigneeId === actor.id ? actor : await teamMember(tx, scope.workspaceId, plan.assigneeId);
  await recordWebhookEvents(
    tx,
    { workspaceId: scope.workspaceId, agentIds: [current.agentId] },
    eventsOf(row, current, plan, actor, assignee),
    now,
  );
  const joined =
    plan.joinedById === null
      ? null
      : plan.joinedById === actor.id
        ? actor
        : plan.joinedById === assignee?.id
          ? assignee
          : await teamMember(tx, scope.workspaceId, plan.joinedById);
  return { row, person: plan.status === "escalated" && joined ? joined.publicName : null };
}

function eventsOf(
  row: Prisma.ConversationGetPayload<{ select: typeof conversationSelect }>,
  current: LockedConversation,
  plan: TransitionPlan,
  actor: TeamMemberRef,
  assignee: TeamMemberRef | null,
): WebhookEventInput[] {
  const conversation = eventConversation(row);
  const ref = (member: TeamMemberRef | null) => (member ? { id: member.id, name: member.name } : null);
  const events: WebhookEventInput[] = [];
  const before = wireStatus(current.status);
  if (before !== conversation.status) events.push(conversationStatusChanged(conversation, before, "admin"));
  if (plan.assigneeId !== current.assigneeId) events.push(conversationAssigned(conversation, ref(assignee), ref(actor)));
  if (plan.status === "resolved" && current.status !== "resolved") events.push(conversationResolved(conversation, ref(actor)));
  return events;
}

/** The conversation as webhook payloads describe it (public status). */
function eventConversation(row: {
  id: string;
  agentId: string;
  channel: "api" | "widget";
  status: ConversationState;
  visitorName: string | null;
  visitorEmail: string | null;
  visitorPhone: string | null;
}): ConversationRef {
  return {
    id: row.id,
    agentId: row.agentId,
    channel: row.channel,
    status: wireStatus(row.status),
    visitor: { name: row.visitorName, email: row.visitorEmail, phone: row.visitorPhone },
  };
}

const PERMISSION_OF: Record<InboxTransition["kind"], InboxPermission> = {
  take_over: "inbox.takeOver",
  hand_back: "inbox.handBack",
  resolve: "inbox.resolve",
  assign: "inbox.assign",
};

/**
 * Takes over, hands back, resolves or assigns. Asking for the state the conversation already has
 * changes nothing and sends nothing.
 */
export async function changeConversation(
  db: Database,
  scope: AdminScope,
  id: string,
  transition: InboxTransition,
  now: Date = new Date(),
  live?: LiveBus,
) {
  assertCan(scope, PERMISSION_OF[transition.kind]);
  const { conversation, announcement } = await db.prisma.$transaction(async (tx) => {
    const current = await lockConversation(tx, scope.workspaceId, id);
    if (transition.kind === "assign" && transition.assigneeId !== null) await teamMember(tx, scope.workspaceId, transition.assigneeId);
    const plan = planTransition(current, transition, scope.userId, now);
    if (!plan) {
      const row = await tx.conversation.findUniqueOrThrow({ where: { id }, select: conversationSelect });
      return { conversation: toConversation(row), announcement: null };
    }
    const { row, person } = await applyPlan(tx, scope, current, plan, now);
    const statusChanged = plan.status !== current.status || plan.joinedById !== current.joinedById;
    const announcement: Announcement = {
      workspaceId: scope.workspaceId,
      conversationId: id,
      status: statusChanged ? { status: wireStatus(plan.status), person } : null,
      closingChanged: (plan.status === "resolved") !== (current.status === "resolved"),
    };
    return { conversation: toConversation(row), announcement };
  });
  if (announcement) await announce(db, live, announcement, now);
  return conversation;
}

/**
 * A person's reply, stored as a `human` message. When the agent holds the conversation (or nobody
 * has taken it yet) the reply takes it over first, in the same transaction: the agent stops
 * answering and the conversation is the replier's. Either way the replier has joined (the visitor
 * is told, once) and the visitor no longer waits. The conversation row is locked first, so the
 * sequence comes from the atomic messageCount increment and concurrent turns never share one.
 * Emits conversation.message (also for conversations of the HTTP API: this is a panel action).
 */
export async function replyToConversation(
  db: Database,
  scope: AdminScope,
  input: z.infer<typeof replyInput>,
  now: Date = new Date(),
  live?: LiveBus,
) {
  assertCan(scope, "inbox.reply");
  const { reply, announcement } = await db.prisma.$transaction(async (tx) => {
    const current = await lockConversation(tx, scope.workspaceId, input.id);
    let announcement: Announcement = {
      workspaceId: scope.workspaceId,
      conversationId: input.id,
      status: null,
      closingChanged: current.status === "resolved",
    };
    if (replyTakesOver(current)) {
      assertCan(scope, "inbox.takeOver");
      const plan = planTransition(current, { kind: "take_over" }, scope.userId, now);
      if (plan) {
        const { person } = await applyPlan(tx, scope, current, plan, now);
        announcement = { ...announcement, status: { status: "escalated", person } };
      }
    } else if (current.joinedById !== scope.userId) {
      const replier = await teamMember(tx, scope.workspaceId, scope.userId);
      announcement = { ...announcement, status: { status: "escalated", person: replier.publicName } };
    }
    const { messageCount, ...row } = await tx.conversation.update({
      where: { id: input.id },
      data: { messageCount: { increment: 1 }, updatedAt: now, joinedById: scope.userId, waitingSince: null },
      select: { ...conversationSelect, messageCount: true },
    });
    const message = await tx.message.create({
      data: { conversationId: input.id, role: "human", text: input.text, sequence: messageCount - 1, createdAt: now },
      select: messageSelect,
    });
    await recordWebhookEvents(
      tx,
      { workspaceId: scope.workspaceId, agentIds: [row.agentId] },
      [
        conversationMessage(eventConversation(row), [
          { role: "human", text: message.text, sequence: message.sequence, createdAt: message.createdAt },
        ]),
      ],
      now,
    );
    return { reply: toMessage(message), announcement };
  });
  // After the commit: the visitor sees who joined, then the reply.
  await announce(db, live, announcement, now);
  await publishLive(live, input.id, { type: "message", message: toWireMessage(reply) });
  return reply;
}

/**
 * A team member is typing a reply: the visitor's widget shows "<name> is typing…" (it clears it
 * itself after TEAM_TYPING_TTL_MS without another signal). Nothing is stored.
 */
export async function signalTyping(db: Database, scope: AdminScope, id: string, live?: LiveBus): Promise<{ ok: true }> {
  assertCan(scope, "inbox.reply");
  const [conversation, user] = await Promise.all([
    db.prisma.conversation.findFirst({ where: { id, agent: { workspaceId: scope.workspaceId } }, select: { id: true } }),
    db.prisma.user.findFirst({ where: { id: scope.userId, workspaceId: scope.workspaceId }, select: { name: true } }),
  ]);
  if (!conversation) throw new AppError(CONVERSATIONS_ERRORS.CONVERSATION_NOT_FOUND);
  if (!user) throw new AppError(PEOPLE_ERRORS.TEAM_MEMBER_NOT_FOUND);
  await publishLive(live, id, { type: "typing", active: true, person: publicName(user) });
  return { ok: true };
}

async function announce(db: Database, live: LiveBus | undefined, announcement: Announcement, now: Date): Promise<void> {
  if (announcement.status && live) {
    const notice = await visitorNotice(db, { workspaceId: announcement.workspaceId, ...announcement.status }, now);
    await publishLive(live, announcement.conversationId, { type: "status", ...announcement.status, notice });
  }
  if (announcement.closingChanged && live) {
    await publishLive(live, announcement.conversationId, { type: "closing", closing: await closingOf(db, announcement.conversationId) });
  }
  await publishInbox(live, announcement.workspaceId, { conversationId: announcement.conversationId });
}
