// The inbox's operations (the `conversations` router of packages/api). The inbox functions check
// their permission themselves too (the live events and the export share them).
import { z } from "zod";
import { panelOperationsOver } from "../../people/panel-operation.ts";
import { teamMemberOutput } from "../../people/team-operations.ts";
import { count, id, moment, okOutput, page } from "../../platform/panel-outputs.ts";
import type { ConversationContext } from "../context.ts";
import { RATING_VALUES } from "../rating.ts";
import { scheduleReplyMail } from "../visitor-email.ts";
import { getConversation, listConversations, listConversationsInput, waitingEscalations } from "./conversations.ts";
import { inboxCounts } from "./counts.ts";
import { assignInput, changeConversation, conversationIdInput, replyInput, replyToConversation, signalTyping } from "./inbox.ts";
import { addNote, addNoteInput } from "./notes.ts";
import { markConversationRead } from "./unread.ts";

const conversationStatus = z.enum(["active", "escalated", "resolved"]);

export const conversationOutput = z.object({
  id,
  agentId: id,
  agentName: z.string(),
  status: conversationStatus,
  channel: z.enum(["api", "widget"]),
  visitorName: z.string().nullable(),
  visitorEmail: z.string().nullable(),
  visitorPhone: z.string().nullable(),
  /** Widget: the page the conversation started on. */
  firstPageUrl: z.string().nullable(),
  messageCount: count,
  assignee: teamMemberOutput.nullable(),
  /** The team member the visitor was told has joined (took it over or replied); null: none has. */
  joinedBy: teamMemberOutput.nullable(),
  /** When it last became escalated; null when never. */
  escalatedAt: moment.nullable(),
  /** Since when the visitor has waited for a person's reply (the queue's order); null: nobody waits. */
  waitingSince: moment.nullable(),
  resolvedAt: moment.nullable(),
  /** The visitor's rating (widget, after a person resolved it): the latest standing; null: not rated. */
  rating: z
    .object({
      rating: z.enum(RATING_VALUES),
      /** The visitor's words, if any (null once their data is erased). */
      comment: z.string().nullable(),
      /** When they first rated the resolution, and when they last changed it. */
      createdAt: moment,
      updatedAt: moment,
    })
    .nullable(),
  /** When the visitor's data was erased; null when it was not. */
  erasedAt: moment.nullable(),
  createdAt: moment,
  updatedAt: moment,
});

const messageRole = z.enum(["user", "agent", "human"]);

const messagePreview = z.object({ role: messageRole, text: z.string(), createdAt: moment });

export const conversationListOutput = page(
  z.object({
    ...conversationOutput.shape,
    lastMessage: messagePreview.nullable(),
    /** The visitor's own last message (what they asked), for the list's preview. */
    lastVisitorMessage: messagePreview.nullable(),
    /** The visitor wrote since the signed-in person last opened it (unread.ts). */
    unread: z.boolean(),
  }),
);

export const waitingEscalationsOutput = z.object({ count, oldestEscalatedAt: moment.nullable() });

/** The signed-in person's counts (counts.ts) and their open assigned conversations, for the alerts. */
export const inboxCountsOutput = z.object({
  mine: count,
  unassigned: count,
  oldestEscalatedAt: moment.nullable(),
  assigned: z.array(
    z.object({
      id,
      visitorName: z.string().nullable(),
      visitorEmail: z.string().nullable(),
      firstPageUrl: z.string().nullable(),
      lastVisitorMessageAt: moment.nullable(),
      unread: z.boolean(),
      /** The person assigned it to themselves or took it over. */
      selfAssigned: z.boolean(),
    }),
  ),
});

export const conversationMessageOutput = z.object({
  id,
  role: messageRole,
  text: z.string(),
  /** Agent and team replies as sanitised HTML; null for the visitor's own text. */
  html: z.string().nullable(),
  tokens: count,
  toolCalls: z.array(z.object({ name: z.string(), args: z.record(z.string(), z.unknown()) })),
  richContent: z.array(z.unknown()),
  sequence: count,
  /** Spoken: the visitor's transcript, or a reply read aloud. */
  voice: z.boolean(),
  /** A spoken reply the visitor cut short: the text is what was played. */
  interrupted: z.boolean(),
  createdAt: moment,
});

/** An internal note: the team's only, never sent to the visitor. */
export const conversationNoteOutput = z.object({ id, text: z.string(), authorName: z.string().nullable(), createdAt: moment });

export const conversationDetailOutput = z.object({
  ...conversationOutput.shape,
  clientVariables: z.record(z.string(), z.string()),
  pageVariables: z.record(z.string(), z.string()),
  messages: z.array(conversationMessageOutput),
  notes: z.array(conversationNoteOutput),
  trackingEvents: z.array(z.object({ id, event: z.string(), properties: z.record(z.string(), z.unknown()), createdAt: moment })),
  /** The inbox timeline: taken over, handed back, assigned, resolved... with who and when. */
  activity: z.array(
    z.object({
      id,
      kind: z.enum(["taken_over", "handed_back", "assigned", "unassigned", "resolved", "reopened", "escalated"]),
      actorName: z.string().nullable(),
      assigneeName: z.string().nullable(),
      createdAt: moment,
    }),
  ),
});

const panel = panelOperationsOver<ConversationContext>();

export const conversationOperations = {
  list: panel.query({
    permission: "inbox.read",
    input: listConversationsInput,
    output: conversationListOutput,
    run: ({ app, scope }, input) => listConversations(app, scope, input),
  }),
  /** The navigation's count of escalations nobody has taken yet. */
  waiting: panel.query({
    permission: "inbox.read",
    output: waitingEscalationsOutput,
    run: ({ app, scope }) => waitingEscalations(app.db, scope),
  }),
  /** The navigation's Mine and Unassigned counts, the title's count and the alerts' state. */
  counts: panel.query({
    permission: "inbox.read",
    output: inboxCountsOutput,
    run: ({ app, scope }) => inboxCounts(app.db, scope),
  }),
  /** The person opened the conversation: it is read for them until the visitor writes again. */
  markRead: panel.mutation({
    permission: "inbox.read",
    input: conversationIdInput,
    output: okOutput,
    run: ({ app, scope }, input) => markConversationRead(app.db, scope, input.id, app.now()),
  }),
  get: panel.query({
    permission: "inbox.read",
    input: conversationIdInput,
    output: conversationDetailOutput,
    run: ({ app, scope }, input) => getConversation(app.db, scope, input.id),
  }),
  reply: panel.mutation({
    permission: "inbox.reply",
    input: replyInput,
    output: conversationMessageOutput,
    // A visitor who is away (no widget socket on the conversation) gets the reply by mail, batched.
    run: async ({ app, scope }, input) => {
      const reply = await replyToConversation(app.db, scope, input, app.now(), app.live);
      await scheduleReplyMail(app, input.id, app.now());
      return reply;
    },
  }),
  /** An internal note: the team sees it in the timeline; the visitor never does. */
  addNote: panel.mutation({
    permission: "inbox.note",
    input: addNoteInput,
    output: conversationNoteOutput,
    run: ({ app, scope }, input) => addNote(app.db, scope, input, app.now(), app.live),
  }),
  /** The panel says a person is typing (at most every few seconds); the visitor's widget shows it. */
  typing: panel.mutation({
    permission: "inbox.reply",
    input: conversationIdInput,
    output: okOutput,
    run: ({ app, scope }, input) => signalTyping(app.db, scope, input.id, app.live),
  }),
  takeOver: panel.mutation({
    permission: "inbox.takeOver",
    input: conversationIdInput,
    output: conversationOutput,
    run: ({ app, scope }, input) => changeConversation(app.db, scope, input.id, { kind: "take_over" }, app.now(), app.live),
  }),
  handBack: panel.mutation({
    permission: "inbox.handBack",
    input: conversationIdInput,
    output: conversationOutput,
    run: ({ app, scope }, input) => changeConversation(app.db, scope, input.id, { kind: "hand_back" }, app.now(), app.live),
  }),
  resolve: panel.mutation({
    permission: "inbox.resolve",
    input: conversationIdInput,
    output: conversationOutput,
    run: ({ app, scope }, input) => changeConversation(app.db, scope, input.id, { kind: "resolve" }, app.now(), app.live),
  }),
  assign: panel.mutation({
    permission: "inbox.assign",
    input: assignInput,
    output: conversationOutput,
    run: ({ app, scope }, input) =>
      changeConversation(app.db, scope, input.id, { kind: "assign", assigneeId: input.assigneeId }, app.now(), app.live),
  }),
};
