// How it went: when a person resolves a conversation, the visitor's widget shows a closing line and
// asks for a rating (good, okay or bad, with optional words). Only the visitor of that conversation
// rates it, over their own widget session (the connection that started or resumed it with its
// signed resume token); nobody else, and no HTTP route, can. One rating per conversation: the
// visitor may change it for RATING_CHANGE_WINDOW_MINUTES after first giving it, then it stands
// until the conversation is resolved again (a later resolution asks again, and its rating
// replaces the earlier one). Each rating is a `conversation.rated` webhook event.
import type { Database, Prisma } from "@parley/db";
import { z } from "zod";
import { limitAddress } from "../platform/client-ip.ts";
import { AppError } from "../platform/errors.ts";
import { enforceRateLimit } from "../platform/ratelimit/index.ts";
import { type ConversationState, wireStatus } from "../platform/wire-status.ts";
import { conversationRated, recordWebhookEvents } from "../webhooks/events.ts";
import type { ConversationContext } from "./context.ts";
import { CONVERSATIONS_ERRORS } from "./errors.ts";
import { RATING_CHANGE_WINDOW_MINUTES, RATING_COMMENT_MAX_CHARS, RATINGS_PER_MINUTE } from "./limits.ts";
import { publishInbox } from "./live.ts";
import type { WireClosing, WireRating } from "./wire-message.ts";

export const RATING_VALUES = ["good", "okay", "bad"] as const;
export type RatingValue = (typeof RATING_VALUES)[number];

/** What the visitor is told when a person resolves their conversation (the widget asks "How did we do?" under it). */
export const CLOSING_TEXT = "This conversation has been resolved. If you need anything else, just write here.";

const RATINGS_POLICY = { name: "conversation-ratings", limit: RATINGS_PER_MINUTE, windowSeconds: 60 };
const CHANGE_WINDOW_MS = RATING_CHANGE_WINDOW_MINUTES * 60_000;

export const ratingValueInput = z.enum(RATING_VALUES, { error: "must be good, okay or bad" });

/** The widget's `rate` frame (without its type): the conversation the visitor rates, how it went, their words. */
export const rateConversationInput = z.strictObject({
  conversationId: z.string().min(1, "must not be empty").max(100, "must be at most 100 characters"),
  rating: ratingValueInput,
  /** Blank words are no words. */
  comment: z
    .string()
    .trim()
    .max(RATING_COMMENT_MAX_CHARS, `must be at most ${RATING_COMMENT_MAX_CHARS} characters`)
    .optional()
    .transform((value) => (value ? value : null)),
});

type RatingRow = { rating: RatingValue; comment: string | null; createdAt: Date };

/** A stored rating counts for the latest resolution only when it was given after it. */
function ratesResolution(rating: { createdAt: Date } | null, resolvedAt: Date | null): boolean {
  return rating !== null && resolvedAt !== null && rating.createdAt.getTime() >= resolvedAt.getTime();
}

function visitorRating(row: RatingRow): WireRating {
  return {
    rating: row.rating,
    comment: row.comment,
    ratedAt: row.createdAt.toISOString(),
    changeableUntil: new Date(row.createdAt.getTime() + CHANGE_WINDOW_MS).toISOString(),
  };
}

/** What the widget shows of the conversation's end: the closing line and rating while it is resolved, else null. */
export async function closingOf(db: Database, conversationId: string): Promise<WireClosing | null> {
  const row = await db.prisma.conversation.findUnique({
    where: { id: conversationId },
    select: { status: true, resolvedAt: true, rating: { select: { rating: true, comment: true, createdAt: true } } },
  });
  if (row?.status !== "resolved") return null;
  const rating = row.rating && ratesResolution(row.rating, row.resolvedAt) ? visitorRating(row.rating) : null;
  return { notice: CLOSING_TEXT, rating };
}

interface LockedForRating {
  id: string;
  agentId: string;
  workspaceId: string;
  status: ConversationState;
  resolvedAt: Date | null;
  test: boolean;
}

async function lockForRating(tx: Prisma.TransactionClient, agentId: string, id: string): Promise<LockedForRating | null> {
  const rows = await tx.$queryRaw<LockedForRating[]>`
    SELECT c."id", c."agentId", a."workspaceId", c."status"::text AS "status", c."resolvedAt", c."test"
    FROM "Conversation" c
    JOIN "Agent" a ON a."id" = c."agentId"
    WHERE c."id" = ${id} AND c."agentId" = ${agentId}
    FOR UPDATE OF c`;
  return rows[0] ?? null;
}

export interface RateRequest {
  agentId: string;
  /** The conversation this widget session holds (started, or resumed with its signed token); null: none yet. */
  sessionConversationId: string | null;
  clientIp: string;
}

/**
 * The visitor rates their resolved conversation. Refused: 429 past RATINGS_PER_MINUTE from one IP;
 * 404 `Conversation not found` for any conversation but the session's own (whether it exists is
 * not told); 409 `Conversation is not resolved`; 409 `Rating can no longer be changed` once the
 * change window of the first rating has passed. The rating, its webhook event and the panels'
 * refresh go together.
 */
export async function rateConversation(
  ctx: ConversationContext,
  request: RateRequest,
  input: z.output<typeof rateConversationInput>,
): Promise<WireRating> {
  await enforceRateLimit(ctx.limiters.configured(RATINGS_POLICY), limitAddress(request.clientIp));
  if (request.sessionConversationId === null || request.sessionConversationId !== input.conversationId) {
    throw new AppError(CONVERSATIONS_ERRORS.CONVERSATION_NOT_FOUND);
  }
  const now = ctx.now();
  const { rating, workspaceId } = await ctx.db.prisma.$transaction(async (tx) => {
    const conversation = await lockForRating(tx, request.agentId, input.conversationId);
    if (!conversation) throw new AppError(CONVERSATIONS_ERRORS.CONVERSATION_NOT_FOUND);
    if (conversation.status !== "resolved") throw new AppError(CONVERSATIONS_ERRORS.CONVERSATION_NOT_RESOLVED);
    const existing = await tx.conversationRating.findUnique({
      where: { conversationId: conversation.id },
      select: { rating: true, createdAt: true },
    });
    const sameResolution = ratesResolution(existing, conversation.resolvedAt);
    if (existing && sameResolution && now.getTime() > existing.createdAt.getTime() + CHANGE_WINDOW_MS) {
      throw new AppError(CONVERSATIONS_ERRORS.RATING_NOT_CHANGEABLE);
    }
    // A rating of an earlier resolution is replaced as a new one (its change window starts again).
    const createdAt = existing && sameResolution ? existing.createdAt : now;
    const row = await tx.conversationRating.upsert({
      where: { conversationId: conversation.id },
      create: { conversationId: conversation.id, rating: input.rating, comment: input.comment, createdAt, updatedAt: now },
      update: { rating: input.rating, comment: input.comment, createdAt, updatedAt: now },
      select: { rating: true, comment: true, createdAt: true },
    });
    // Test chats send no webhooks (they never reach the widget, but the rule is the turn's too).
    if (!conversation.test) {
      const facts = await tx.conversation.findUniqueOrThrow({
        where: { id: conversation.id },
        select: { channel: true, visitorName: true, visitorEmail: true, visitorPhone: true },
      });
      const ref = {
        id: conversation.id,
        agentId: conversation.agentId,
        channel: facts.channel,
        status: wireStatus(conversation.status),
        visitor: { name: facts.visitorName, email: facts.visitorEmail, phone: facts.visitorPhone },
      };
      const previousRating = existing && sameResolution ? existing.rating : null;
      await recordWebhookEvents(
        tx,
        { workspaceId: conversation.workspaceId, agentIds: [conversation.agentId] },
        [conversationRated(ref, { rating: row.rating, comment: row.comment, ratedAt: row.createdAt, previousRating })],
        now,
      );
    }
    return { rating: row, workspaceId: conversation.workspaceId };
  });
  await publishInbox(ctx.live, workspaceId, { conversationId: input.conversationId });
  return visitorRating(rating);
}

/** The inbox filter "Rated good / okay / bad": conversations whose standing rating is that one. */
export function ratingWhere(rating: RatingValue): Prisma.ConversationWhereInput {
  return { rating: { is: { rating } } };
}

/** The rating as the panel shows it with a conversation. */
export const ratingSelect = { rating: true, comment: true, createdAt: true, updatedAt: true } satisfies Prisma.ConversationRatingSelect;
