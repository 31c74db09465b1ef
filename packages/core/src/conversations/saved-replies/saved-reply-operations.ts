// The team's saved replies (the `savedReplies` router of packages/api).
import { z } from "zod";
import { panelOperationsOver } from "../../people/panel-operation.ts";
import type { PlatformContext } from "../../platform/context.ts";
import { id, moment, okOutput } from "../../platform/panel-outputs.ts";
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
} from "./saved-replies.ts";

export const savedReplyOutput = z.object({ id, title: z.string(), text: z.string(), updatedAt: moment });

const panel = panelOperationsOver<PlatformContext>();

export const savedReplyOperations = {
  list: panel.query({
    permission: "inbox.reply",
    output: z.array(savedReplyOutput),
    run: ({ app, scope }) => listSavedReplies(app.db, scope),
  }),
  create: panel.mutation({
    permission: "inbox.savedReplies",
    input: createSavedReplyInput,
    output: savedReplyOutput,
    run: ({ app, scope }, input) => createSavedReply(app.db, scope, input),
  }),
  update: panel.mutation({
    permission: "inbox.savedReplies",
    input: updateSavedReplyInput,
    output: savedReplyOutput,
    run: ({ app, scope }, input) => updateSavedReply(app.db, scope, input),
  }),
  delete: panel.mutation({
    permission: "inbox.savedReplies",
    input: savedReplyIdInput,
    output: okOutput,
    run: ({ app, scope }, input) => deleteSavedReply(app.db, scope, input.id),
  }),
  /** The reply's text with the conversation's visitor, agent and the person filled in. */
  fill: panel.mutation({
    permission: "inbox.reply",
    input: fillSavedReplyInput,
    output: z.object({ text: z.string() }),
    run: ({ app, scope }, input) => fillSavedReply(app.db, scope, input),
  }),
};
