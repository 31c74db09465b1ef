import {
  addNote,
  addNoteInput,
  assignInput,
  changeConversation,
  conversationIdInput,
  getConversation,
  listConversations,
  listConversationsInput,
  replyInput,
  replyToConversation,
  signalTyping,
  waitingEscalations,
} from "@parley/core/conversations";
import {
  conversationDetailOutput,
  conversationListOutput,
  conversationMessageOutput,
  conversationNoteOutput,
  conversationOutput,
  okOutput,
  waitingEscalationsOutput,
} from "../outputs.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const conversationsRouter = createTRPCRouter({
  list: protectedProcedure
    .input(listConversationsInput)
    .output(conversationListOutput)
    .query(({ ctx, input }) => listConversations(ctx.app, ctx.session, input)),
  /** The navigation's count of escalations nobody has taken yet. */
  waiting: protectedProcedure.output(waitingEscalationsOutput).query(({ ctx }) => waitingEscalations(ctx.app.db, ctx.session)),
  get: protectedProcedure
    .input(conversationIdInput)
    .output(conversationDetailOutput)
    .query(({ ctx, input }) => getConversation(ctx.app.db, ctx.session, input.id)),
  reply: protectedProcedure
    .input(replyInput)
    .output(conversationMessageOutput)
    .mutation(({ ctx, input }) => replyToConversation(ctx.app.db, ctx.session, input, ctx.app.now(), ctx.app.live)),
  /** An internal note: the team sees it in the timeline; the visitor never does. */
  addNote: protectedProcedure
    .input(addNoteInput)
    .output(conversationNoteOutput)
    .mutation(({ ctx, input }) => addNote(ctx.app.db, ctx.session, input, ctx.app.now(), ctx.app.live)),
  /** The panel says a person is typing (at most every few seconds); the visitor's widget shows it. */
  typing: protectedProcedure
    .input(conversationIdInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => signalTyping(ctx.app.db, ctx.session, input.id, ctx.app.live)),
  takeOver: protectedProcedure
    .input(conversationIdInput)
    .output(conversationOutput)
    .mutation(({ ctx, input }) =>
      changeConversation(ctx.app.db, ctx.session, input.id, { kind: "take_over" }, ctx.app.now(), ctx.app.live),
    ),
  handBack: protectedProcedure
    .input(conversationIdInput)
    .output(conversationOutput)
    .mutation(({ ctx, input }) =>
      changeConversation(ctx.app.db, ctx.session, input.id, { kind: "hand_back" }, ctx.app.now(), ctx.app.live),
    ),
  resolve: protectedProcedure
    .input(conversationIdInput)
    .output(conversationOutput)
    .mutation(({ ctx, input }) => changeConversation(ctx.app.db, ctx.session, input.id, { kind: "resolve" }, ctx.app.now(), ctx.app.live)),
  assign: protectedProcedure
    .input(assignInput)
    .output(conversationOutput)
    .mutation(({ ctx, input }) =>
      changeConversation(ctx.app.db, ctx.session, input.id, { kind: "assign", assigneeId: input.assigneeId }, ctx.app.now(), ctx.app.live),
    ),
});
