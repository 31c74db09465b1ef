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
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const conversationsRouter = createTRPCRouter({
  list: protectedProcedure
    .input(listConversationsInput)
    .query(({ ctx, input }) => listConversations(ctx.app.db, ctx.session.workspaceId, input)),
  get: protectedProcedure
    .input(conversationIdInput)
    .query(({ ctx, input }) => getConversation(ctx.app.db, ctx.session.workspaceId, input.id)),
  reply: protectedProcedure
    .input(replyInput)
    .mutation(({ ctx, input }) => replyToConversation(ctx.app.db, ctx.session.workspaceId, input, ctx.app.now(), ctx.app.live)),
  setStatus: protectedProcedure
    .input(setStatusInput)
    .mutation(({ ctx, input }) => setConversationStatus(ctx.app.db, ctx.session.workspaceId, input, ctx.app.now(), ctx.app.live)),
});
