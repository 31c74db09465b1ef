// Internal notes: what a team member writes on a conversation for the rest of the team. They live
// in their own table, so the transcript the visitor, the HTTP API and webhooks read (Message)
// never holds one; the panel shows them in the conversation's timeline, and open panels refresh.
import type { Database } from "@parley/db";
import { z } from "zod";
import { assertCan } from "../../people/permissions.ts";
import { type AdminScope, rowId } from "../../people/scope.ts";
import { teamMemberName } from "../../people/team.ts";
import { AppError } from "../../platform/errors.ts";
import { CONVERSATIONS_ERRORS } from "../errors.ts";
import { NOTE_MAX_CHARS } from "../limits.ts";
import { type LiveBus, publishInbox } from "../live.ts";

export const addNoteInput = z.object({
  id: rowId,
  text: z
    .string()
    .max(NOTE_MAX_CHARS, `Keep the note under ${NOTE_MAX_CHARS.toLocaleString("en-US")} characters`)
    .refine((value) => value.trim().length > 0, "Write a note"),
});

/** A note as the panel shows it: who wrote it (null once their account is gone) and when. */
export interface ConversationNoteView {
  id: string;
  text: string;
  createdAt: Date;
  authorName: string | null;
}

export const noteSelect = {
  id: true,
  text: true,
  createdAt: true,
  author: { select: { name: true, email: true } },
} as const;

export function toNote(row: {
  id: string;
  text: string;
  createdAt: Date;
  author: { name: string; email: string } | null;
}): ConversationNoteView {
  return { id: row.id, text: row.text, createdAt: row.createdAt, authorName: row.author ? teamMemberName(row.author) : null };
}

/** Adds a note to a conversation of the person's workspace (any status; it changes nothing else). */
export async function addNote(
  db: Database,
  scope: AdminScope,
  input: z.infer<typeof addNoteInput>,
  now: Date,
  live?: LiveBus,
): Promise<ConversationNoteView> {
  assertCan(scope, "inbox.note");
  const conversation = await db.prisma.conversation.findFirst({
    where: { id: input.id, agent: { workspaceId: scope.workspaceId } },
    select: { id: true },
  });
  if (!conversation) throw new AppError(CONVERSATIONS_ERRORS.CONVERSATION_NOT_FOUND);
  const note = await db.prisma.conversationNote.create({
    data: { conversationId: conversation.id, authorId: scope.userId, text: input.text.trim(), createdAt: now },
    select: noteSelect,
  });
  await publishInbox(live, scope.workspaceId, { conversationId: conversation.id });
  return toNote(note);
}
