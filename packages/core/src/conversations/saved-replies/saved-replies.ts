// Saved replies: text the team writes once and inserts in any conversation's reply box, with
// placeholders (conversations/saved-replies/placeholders.ts) filled in for the conversation when it is inserted.
import { type Database, Prisma } from "@parley/db";
import { z } from "zod";
import { recordAudit } from "../../people/audit.ts";
import { assertCan } from "../../people/permissions.ts";
import { type AdminScope, rowId } from "../../people/scope.ts";
import { publicName } from "../../people/team.ts";
import { AppError } from "../../platform/errors.ts";
import { SAVED_REPLIES_MAX } from "../../platform/limits.ts";
import { CONVERSATIONS_ERRORS } from "../errors.ts";
import { MESSAGE_MAX_CHARS, SAVED_REPLY_TITLE_MAX_CHARS } from "../limits.ts";
import { fillPlaceholders, type Placeholder, SAVED_REPLY_PLACEHOLDERS, unknownPlaceholders } from "./placeholders.ts";

const placeholderList = SAVED_REPLY_PLACEHOLDERS.map((name) => `{{${name}}}`).join(", ");

const savedReplyFields = {
  title: z
    .string()
    .trim()
    .min(1, "Give the reply a title")
    .max(SAVED_REPLY_TITLE_MAX_CHARS, `Keep the title under ${SAVED_REPLY_TITLE_MAX_CHARS} characters`),
  text: z
    .string()
    .max(MESSAGE_MAX_CHARS, `Keep the reply under ${MESSAGE_MAX_CHARS.toLocaleString("en-US")} characters`)
    .refine((value) => value.trim().length > 0, "Write the reply")
    .superRefine((value, ctx) => {
      const unknown = unknownPlaceholders(value);
      if (unknown.length > 0) {
        ctx.addIssue({ code: "custom", message: `Unknown placeholder {{${unknown[0]}}}: use ${placeholderList}` });
      }
    }),
};

export const createSavedReplyInput = z.object(savedReplyFields);
export const updateSavedReplyInput = z.object({ id: rowId, ...savedReplyFields });
export const savedReplyIdInput = z.object({ id: rowId });
export const fillSavedReplyInput = z.object({ id: rowId, conversationId: rowId });

const savedReplySelect = { id: true, title: true, text: true, updatedAt: true } as const;

/** The workspace's saved replies, by title: for everyone who may reply. */
export async function listSavedReplies(db: Database, scope: AdminScope) {
  assertCan(scope, "inbox.reply");
  return db.prisma.savedReply.findMany({ where: { workspaceId: scope.workspaceId }, select: savedReplySelect, orderBy: { title: "asc" } });
}

export async function createSavedReply(db: Database, scope: AdminScope, input: z.infer<typeof createSavedReplyInput>) {
  assertCan(scope, "inbox.savedReplies");
  return uniqueTitle(async () => {
    const count = await db.prisma.savedReply.count({ where: { workspaceId: scope.workspaceId } });
    if (count >= SAVED_REPLIES_MAX) throw new AppError(CONVERSATIONS_ERRORS.SAVED_REPLIES_LIMIT);
    return db.prisma.$transaction(async (tx) => {
      const created = await tx.savedReply.create({ data: { workspaceId: scope.workspaceId, ...input }, select: savedReplySelect });
      await recordAudit(tx, scope, { action: "savedReply.created", ...replyTarget(created) });
      return created;
    });
  });
}

export async function updateSavedReply(db: Database, scope: AdminScope, input: z.infer<typeof updateSavedReplyInput>) {
  assertCan(scope, "inbox.savedReplies");
  const { id, ...fields } = input;
  return uniqueTitle(async () => {
    return db.prisma.$transaction(async (tx) => {
      const { count } = await tx.savedReply.updateMany({ where: { id, workspaceId: scope.workspaceId }, data: fields });
      if (count === 0) throw new AppError(CONVERSATIONS_ERRORS.SAVED_REPLY_NOT_FOUND);
      const updated = await tx.savedReply.findUniqueOrThrow({ where: { id }, select: savedReplySelect });
      const changed = Object.keys(fields).filter((name) => fields[name as keyof typeof fields] !== undefined);
      await recordAudit(tx, scope, { action: "savedReply.updated", ...replyTarget(updated), detail: { fields: changed.sort() } });
      return updated;
    });
  });
}

export async function deleteSavedReply(db: Database, scope: AdminScope, id: string): Promise<{ ok: true }> {
  assertCan(scope, "inbox.savedReplies");
  await db.prisma.$transaction(async (tx) => {
    const reply = await tx.savedReply.findFirst({ where: { id, workspaceId: scope.workspaceId }, select: { id: true, title: true } });
    const { count } = await tx.savedReply.deleteMany({ where: { id, workspaceId: scope.workspaceId } });
    if (count === 0 || !reply) throw new AppError(CONVERSATIONS_ERRORS.SAVED_REPLY_NOT_FOUND);
    await recordAudit(tx, scope, { action: "savedReply.deleted", ...replyTarget(reply) });
  });
  return { ok: true };
}

const replyTarget = (reply: { id: string; title: string }) =>
  ({ targetType: "savedReply", targetId: reply.id, targetLabel: reply.title }) as const;

/** The saved reply's text with its placeholders filled in for the conversation, to edit and send. */
export async function fillSavedReply(
  db: Database,
  scope: AdminScope,
  input: z.infer<typeof fillSavedReplyInput>,
): Promise<{ text: string }> {
  assertCan(scope, "inbox.reply");
  const [reply, conversation, me] = await Promise.all([
    db.prisma.savedReply.findFirst({ where: { id: input.id, workspaceId: scope.workspaceId }, select: { text: true } }),
    db.prisma.conversation.findFirst({
      where: { id: input.conversationId, agent: { workspaceId: scope.workspaceId } },
      select: { visitorName: true, visitorEmail: true, agent: { select: { name: true } } },
    }),
    db.prisma.user.findFirst({ where: { id: scope.userId, workspaceId: scope.workspaceId }, select: { name: true } }),
  ]);
  if (!reply) throw new AppError(CONVERSATIONS_ERRORS.SAVED_REPLY_NOT_FOUND);
  if (!conversation) throw new AppError(CONVERSATIONS_ERRORS.CONVERSATION_NOT_FOUND);
  const values: Record<Placeholder, string> = {
    "visitor.name": conversation.visitorName?.trim() ?? "",
    "visitor.email": conversation.visitorEmail?.trim() ?? "",
    "agent.name": conversation.agent.name,
    "me.name": me ? publicName(me) : "",
  };
  return { text: fillPlaceholders(reply.text, values) };
}

/** Runs `write`, turning a duplicate title into SAVED_REPLY_TITLE_TAKEN. */
async function uniqueTitle<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
      throw new AppError(CONVERSATIONS_ERRORS.SAVED_REPLY_TITLE_TAKEN);
    throw error;
  }
}
