import {
  createSavedReply,
  createSavedReplyInput,
  deleteSavedReply,
  fillSavedReply,
  fillSavedReplyInput,
  listSavedReplies,
  savedReplyIdInput,
  updateSavedReply,
  updateSavedReplyInput,
} from "@parley/core/conversations";
import { z } from "zod";
import { okOutput, savedReplyOutput } from "../outputs.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const savedRepliesRouter = createTRPCRouter({
  list: protectedProcedure.output(z.array(savedReplyOutput)).query(({ ctx }) => listSavedReplies(ctx.app.db, ctx.session)),
  create: protectedProcedure
    .input(createSavedReplyInput)
    .output(savedReplyOutput)
    .mutation(({ ctx, input }) => createSavedReply(ctx.app.db, ctx.session, input)),
  update: protectedProcedure
    .input(updateSavedReplyInput)
    .output(savedReplyOutput)
    .mutation(({ ctx, input }) => updateSavedReply(ctx.app.db, ctx.session, input)),
  delete: protectedProcedure
    .input(savedReplyIdInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => deleteSavedReply(ctx.app.db, ctx.session, input.id)),
  /** The reply's text with the conversation's visitor, agent and the person filled in. */
  fill: protectedProcedure
    .input(fillSavedReplyInput)
    .output(z.object({ text: z.string() }))
    .mutation(({ ctx, input }) => fillSavedReply(ctx.app.db, ctx.session, input)),
});
