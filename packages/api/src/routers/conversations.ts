import {
  conversationIdInput,
  getConversation,
  listConversations,
  listConversationsInput,
  replyInput,
  replyToConversation,
  setConversationStatus,
  setStatusInput,
} from "@parley/core/admin";
import { conversationDetailOutput, conversationListOutput, conversationMessageOutput, conversationOutput } from "../outputs.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const conversationsRouter = createTRPCRouter({
  list: protectedProcedure
    .input(listConversationsInput)
    .output(conversationListOutput)
    .query(({ ctx, input }) => listConversations(ctx.app.db, ctx.session.workspaceId, input)),
  get: protectedProcedure
    .input(conversationIdInput)
    .output(conversationDetailOutput)
    .query(({ ctx, input }) => getConversation(ctx.app.db, ctx.session.workspaceId, input.id)),
  reply: protectedProcedure
    .input(replyInput)
    .output(conversationMessageOutput)
    .mutation(({ ctx, input }) => replyToConversation(ctx.app.db, ctx.session.workspaceId, input, ctx.app.now(), ctx.app.live)),
  setStatus: protectedProcedure
    .input(setStatusInput)
    .output(conversationOutput)
    .mutation(({ ctx, input }) => setConversationStatus(ctx.app.db, ctx.session.workspaceId, input, ctx.app.now(), ctx.app.live)),
});
