// The visitor's rating of a resolved conversation (conversations/rating.ts): what is stored, who
// may rate (only the widget session that holds the conversation), the refusals with their exact
// status and text, the change window, the `conversation.rated` webhook event, the inbox filter
// and the home page's counts, and erasure. Real database, either mode.
import { messagingAgent, type TestContext } from "@parley/testing/context";
import { createAgentWithKey, createMessagingContext, type TestAgent } from "@parley/testing/messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessagingAgent } from "../src/agents/keys/message-auth.ts";
import { listConversations } from "../src/conversations/inbox/conversations.ts";
import { changeConversation } from "../src/conversations/inbox/inbox.ts";
import { RATING_CHANGE_WINDOW_MINUTES, RATING_COMMENT_MAX_CHARS } from "../src/conversations/limits.ts";
import { CLOSING_TEXT, closingOf, rateConversation, rateConversationInput } from "../src/conversations/rating.ts";
import { runTurn } from "../src/conversations/turn/turn.ts";
import { eraseConversations } from "../src/conversations/visitor-data.ts";
import { panelHome } from "../src/home/home.ts";
import { AppError } from "../src/platform/errors.ts";
import { createEndpoint } from "../src/webhooks/endpoints.ts";
import { WEBHOOK_PAYLOAD_SCHEMAS } from "../src/webhooks/schemas.ts";
import { WEBHOOK_EVENT_TYPES } from "../src/webhooks/types.ts";
import { parseClientFrame } from "../src/widget/protocol.ts";

const WORKSPACE = "ws-demo";
const ADMIN = { userId: "user-admin", workspaceId: WORKSPACE, role: "owner" } as const;
/** A fresh client IP per call (the per-IP limit has its own test). */
let ipCount = 0;
const nextIp = () => `203.0.113.${++ipCount % 250}`;
const MINUTE = 60_000;

let clock = new Date("2026-12-04T10:00:00.000Z");
let ctx: TestContext;
let agent: TestAgent;
let messaging: MessagingAgent;

beforeAll(async () => {
  ctx = await createMessagingContext({ now: () => clock });
  agent = await createAgentWithKey(ctx);
  messaging = messagingAgent({ id: agent.id, workspaceId: WORKSPACE });
  await createEndpoint(
    ctx.db,
    ADMIN,
    {
      url: "https://hooks.example.com/parley",
      description: "",
      allAgents: true,
      agentIds: [],
      eventTypes: [...WEBHOOK_EVENT_TYPES],
      enabled: true,
    },
    { policy: { allowLocal: false, resolve: async () => ["93.184.216.34"] }, now: clock },
  );
});

afterAll(async () => {
  await ctx.close();
});

/** A widget conversation of a visitor named Ada, resolved by the admin at `clock`. */
async function resolvedConversation(message = "How do I reset my password?"): Promise<string> {
  const turn = await runTurn(ctx, messaging, { message, visitor: { name: "Ada" } }, { channel: "widget" });
  await changeConversation(ctx.db, ADMIN, turn.conversationId, { kind: "resolve" }, clock);
  return turn.conversationId;
}

function rate(
  conversationId: string,
  fields: { rating?: "good" | "okay" | "bad"; comment?: string; session?: string | null; ip?: string } = {},
) {
  const input = rateConversationInput.parse({ conversationId, rating: fields.rating ?? "good", comment: fields.comment });
  const session = fields.session === undefined ? conversationId : fields.session;
  return rateConversation(ctx, { agentId: agent.id, sessionConversationId: session, clientIp: fields.ip ?? nextIp() }, input);
}

/** The refusal's status and text (and code), or "ok". */
async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
    return "ok";
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.status, error: error.message, code: error.code };
  }
}

async function ratedEvents(conversationId: string) {
  const rows = await ctx.db.prisma.webhookEvent.findMany({ where: { type: "conversation.rated" }, orderBy: { id: "asc" } });
  return rows
    .map(
      (row) =>
        JSON.parse(row.payload) as {
          type: string;
          timestamp: string;
          data: { conversation: { id: string }; rating: string; previousRating: string | null; comment: string | null };
        },
    )
    .filter((payload) => payload.data.conversation.id === conversationId)
    .map((payload) => {
      expect(() => WEBHOOK_PAYLOAD_SCHEMAS["conversation.rated"].parse(payload)).not.toThrow();
      return payload;
    });
}

describe("rating a resolved conversation", () => {
  it("stores exactly what the visitor gave, answers what the widget shows, and sends conversation.rated", async () => {
    clock = new Date("2026-12-04T10:00:00.000Z");
    const id = await resolvedConversation();
    clock = new Date("2026-12-04T10:01:00.000Z");
    const answer = await rate(id, { rating: "good", comment: "  Quick and kind, thank you 🚀  " });
    expect(answer).toEqual({
      rating: "good",
      comment: "Quick and kind, thank you 🚀",
      ratedAt: "2026-12-04T10:01:00.000Z",
      changeableUntil: new Date(clock.getTime() + RATING_CHANGE_WINDOW_MINUTES * MINUTE).toISOString(),
    });
    const stored = await ctx.db.prisma.conversationRating.findUniqueOrThrow({ where: { conversationId: id } });
    expect(stored).toEqual({
      id: stored.id,
      conversationId: id,
      rating: "good",
      comment: "Quick and kind, thank you 🚀",
      createdAt: new Date("2026-12-04T10:01:00.000Z"),
      updatedAt: new Date("2026-12-04T10:01:00.000Z"),
    });
    expect(await closingOf(ctx.db, id)).toEqual({ notice: CLOSING_TEXT, rating: answer });

    expect(await ratedEvents(id)).toEqual([
      {
        type: "conversation.rated",
        timestamp: "2026-12-04T10:01:00.000Z",
        data: {
          conversation: { id, agentId: agent.id, channel: "widget", status: "active", visitor: { name: "Ada", email: null, phone: null } },
          rating: "good",
          previousRating: null,
          comment: "Quick and kind, thank you 🚀",
          ratedAt: "2026-12-04T10:01:00.000Z",
        },
      },
    ]);
  });

  it(`rating again replaces it for ${RATING_CHANGE_WINDOW_MINUTES} minutes, then 409 "Rating can no longer be changed"; a new resolution asks again`, async () => {
    clock = new Date("2026-12-04T11:00:00.000Z");
    const id = await resolvedConversation();
    await rate(id, { rating: "bad" });
    clock = new Date(clock.getTime() + RATING_CHANGE_WINDOW_MINUTES * MINUTE);
    // The last moment of the window: replaced, the first rating's time kept, words dropped when none are sent.
    expect(await rate(id, { rating: "okay", comment: "Slow at first" })).toMatchObject({
      rating: "okay",
      ratedAt: "2026-12-04T11:00:00.000Z",
    });
    const events = await ratedEvents(id);
    expect(events.map((event) => [event.data.rating, event.data.previousRating, event.data.comment])).toEqual([
      ["bad", null, null],
      ["okay", "bad", "Slow at first"],
    ]);
    clock = new Date(clock.getTime() + 1);
    expect(await refusal(rate(id, { rating: "good" }))).toEqual({
      status: 409,
      error: "Rating can no longer be changed",
      code: "RATING_NOT_CHANGEABLE",
    });
    expect(await ctx.db.prisma.conversationRating.findUniqueOrThrow({ where: { conversationId: id } })).toMatchObject({
      rating: "okay",
      comment: "Slow at first",
    });

    // The visitor writes again (reopened), a person resolves it again: a fresh rating replaces the old one.
    clock = new Date("2026-12-04T15:00:00.000Z");
    await runTurn(ctx, messaging, { message: "One more thing", conversationId: id }, { channel: "widget" });
    expect(await closingOf(ctx.db, id)).toBeNull();
    await changeConversation(ctx.db, ADMIN, id, { kind: "resolve" }, clock);
    expect(await closingOf(ctx.db, id)).toEqual({ notice: CLOSING_TEXT, rating: null });
    clock = new Date("2026-12-04T15:02:00.000Z");
    expect(await rate(id, { rating: "good" })).toMatchObject({ rating: "good", comment: null, ratedAt: "2026-12-04T15:02:00.000Z" });
    expect((await ratedEvents(id)).at(-1)?.data).toMatchObject({ rating: "good", previousRating: null });
  });

  it('409 "Conversation is not resolved" for an open conversation, and after the visitor reopened it', async () => {
    clock = new Date("2026-12-04T12:00:00.000Z");
    const turn = await runTurn(ctx, messaging, { message: "Hello" }, { channel: "widget" });
    const notResolved = { status: 409, error: "Conversation is not resolved", code: "CONVERSATION_NOT_RESOLVED" };
    expect(await refusal(rate(turn.conversationId))).toEqual(notResolved);
    await changeConversation(ctx.db, ADMIN, turn.conversationId, { kind: "resolve" }, clock);
    await runTurn(ctx, messaging, { message: "Actually, one more question", conversationId: turn.conversationId }, { channel: "widget" });
    expect(await refusal(rate(turn.conversationId))).toEqual(notResolved);
    expect(await ctx.db.prisma.conversationRating.count({ where: { conversationId: turn.conversationId } })).toBe(0);
  });

  it('404 "Conversation not found" for anyone but the visitor whose widget session holds the conversation', async () => {
    clock = new Date("2026-12-04T13:00:00.000Z");
    const id = await resolvedConversation();
    const other = await resolvedConversation("Another visitor's question");
    const notFound = { status: 404, error: "Conversation not found", code: "CONVERSATION_NOT_FOUND" };
    // Another visitor's session (holding their own conversation), a session with none yet, an id of nothing.
    expect(await refusal(rate(id, { session: other }))).toEqual(notFound);
    expect(await refusal(rate(id, { session: null }))).toEqual(notFound);
    expect(await refusal(rate("no-such-conversation", { session: "no-such-conversation" }))).toEqual(notFound);
    // The conversation of another agent, through this agent's session: not found either.
    const otherAgent = await createAgentWithKey(ctx);
    const foreign = await runTurn(
      ctx,
      messagingAgent({ id: otherAgent.id, workspaceId: WORKSPACE }),
      { message: "Hi" },
      { channel: "widget" },
    );
    await changeConversation(ctx.db, ADMIN, foreign.conversationId, { kind: "resolve" }, clock);
    expect(await refusal(rate(foreign.conversationId))).toEqual(notFound);
    expect(await ctx.db.prisma.conversationRating.count({ where: { conversationId: { in: [id, foreign.conversationId] } } })).toBe(0);
  });

  it("400 for a bad value or words too long, naming the field (the widget's rate frame)", () => {
    const frame = (fields: Record<string, unknown>) => parseClientFrame(JSON.stringify({ type: "rate", conversationId: "c1", ...fields }));
    expect(frame({ rating: "great" })).toEqual({ ok: false, error: "Invalid request", details: "rating: must be good, okay or bad" });
    expect(frame({})).toEqual({ ok: false, error: "Invalid request", details: "rating: must be good, okay or bad" });
    expect(frame({ rating: "good", comment: "x".repeat(RATING_COMMENT_MAX_CHARS + 1) })).toEqual({
      ok: false,
      error: "Invalid request",
      details: `comment: must be at most ${RATING_COMMENT_MAX_CHARS} characters`,
    });
    expect(frame({ rating: "good", stars: 5 })).toEqual({ ok: false, error: "Invalid request", details: "stars: is not a known field" });
    expect(frame({ rating: "okay", comment: "x".repeat(RATING_COMMENT_MAX_CHARS) })).toMatchObject({ ok: true });
    expect(frame({ rating: "bad", comment: "   " })).toEqual({
      ok: true,
      frame: { type: "rate", conversationId: "c1", rating: "bad", comment: null },
    });
  });

  it("429 past the ratings one IP may send per minute", async () => {
    clock = new Date("2026-12-04T14:00:00.000Z");
    const id = await resolvedConversation();
    const outcomes = [];
    for (let i = 0; i < 11; i++) outcomes.push(await refusal(rate(id, { ip: "198.51.100.77" })));
    expect(outcomes.slice(0, 10)).toEqual(Array(10).fill("ok"));
    expect(outcomes[10]).toMatchObject({ status: 429, error: "Rate limit exceeded" });
  });
});

describe("ratings in the panel", () => {
  it("the inbox filter lists exactly the conversations rated so, with and without search words", async () => {
    clock = new Date("2026-12-05T09:00:00.000Z");
    const good = await resolvedConversation("Where is my parcel, good one?");
    const bad = await resolvedConversation("Where is my parcel, bad one?");
    const unrated = await resolvedConversation("Where is my parcel, unrated?");
    await rate(good, { rating: "good", comment: "Found it" });
    await rate(bad, { rating: "bad" });
    const list = async (rating: "good" | "okay" | "bad", q?: string) =>
      (await listConversations(ctx, ADMIN, { rating, q, limit: 100 })).items.map((item) => item.id);
    expect(await list("good")).toContain(good);
    expect(await list("good")).not.toContain(bad);
    expect(await list("good")).not.toContain(unrated);
    expect(await list("bad", "parcel")).toEqual([bad]);
    expect(await list("good", "parcel")).toEqual([good]);
    expect(await list("okay", "parcel")).toEqual([]);
    const [item] = (await listConversations(ctx, ADMIN, { rating: "good", q: "parcel", limit: 10 })).items;
    expect(item?.rating).toEqual({
      rating: "good",
      comment: "Found it",
      createdAt: new Date("2026-12-05T09:00:00.000Z"),
      updatedAt: new Date("2026-12-05T09:00:00.000Z"),
    });
    expect((await listConversations(ctx, ADMIN, { q: "unrated", limit: 10 })).items[0]).toMatchObject({ id: unrated, rating: null });
  });

  it("the home page counts the last seven days' ratings by value", async () => {
    const home = await panelHome(ctx.db, ADMIN, new Date("2026-12-05T12:00:00.000Z"));
    const all = await ctx.db.prisma.conversationRating.groupBy({ by: ["rating"], _count: true });
    const count = (rating: string) => all.find((row) => row.rating === rating)?._count ?? 0;
    expect(home.ratingsThisWeek).toEqual({ good: count("good"), okay: count("okay"), bad: count("bad") });
    expect(home.ratingsThisWeek.good).toBeGreaterThan(0);
    // Eight days on, none of them is this week's.
    expect((await panelHome(ctx.db, ADMIN, new Date("2026-12-13T12:00:00.000Z"))).ratingsThisWeek).toEqual({ good: 0, okay: 0, bad: 0 });
  });

  it("erasing the visitor's data drops their words and keeps the rating for the counts", async () => {
    clock = new Date("2026-12-05T10:00:00.000Z");
    const id = await resolvedConversation();
    await rate(id, { rating: "okay", comment: "My order 1234 for Ada Lovelace" });
    await ctx.db.prisma.$transaction((tx) => eraseConversations(tx, [id], clock));
    expect(await ctx.db.prisma.conversationRating.findUniqueOrThrow({ where: { conversationId: id } })).toMatchObject({
      rating: "okay",
      comment: null,
    });
  });
});
