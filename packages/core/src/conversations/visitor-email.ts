// Reaching the visitor by email. On handoff (and when no person has replied within
// VISITOR_EMAIL_PROMPT_AFTER_MS of the visitor's last message) the widget asks for an address:
// optional, validated, stored as the conversation's visitorEmail (the inbox names the visitor by
// it). A person's replies written while the visitor is away (no widget socket holds the
// conversation: visitorPresentUntil past) are mailed to it, gathered for VISITOR_MAIL_BATCH_MS
// into one mail, with a signed resume link (the widget's own resume token, HMAC with the app's
// secret, expiring, for that one conversation) that reopens the conversation in the widget on the
// page it ran on (or the help centre). The visitor may also have the transcript mailed. Only the
// visitor's own widget session gives an address or asks for the transcript (the frames carry no
// conversation id: they act on the session's). Without a mailer (no SMTP_URL) nothing is asked,
// stored or sent.
import type { Database } from "@parley/db";
import { z } from "zod";
import { limitAddress } from "../platform/client-ip.ts";
import { AppError } from "../platform/errors.ts";
import { describeError, logger } from "../platform/logger.ts";
import type { Mailer, MailMessage } from "../platform/mail.ts";
import { enforceRateLimit } from "../platform/ratelimit/index.ts";
import type { BackgroundTask, RunResult, ScheduledTask } from "../platform/scheduler/task.ts";
import { scheduleTask } from "../platform/scheduler/task.ts";

import type { ConversationContext } from "./context.ts";
import { CONVERSATIONS_ERRORS } from "./errors.ts";
import {
  TRANSCRIPT_MAX_MESSAGES,
  TRANSCRIPTS_PER_HOUR,
  VISITOR_EMAIL_MAX_CHARS,
  VISITOR_EMAILS_PER_MINUTE,
  VISITOR_MAIL_BATCH_MS,
  VISITOR_MAIL_TASK_INTERVAL_MS,
  VISITOR_PRESENCE_TTL_MS,
} from "./limits.ts";
import { publishInbox } from "./live.ts";

/**
 * What signs the link that brings a visitor back to their conversation: the widget's resume
 * tokens (widget/resume.ts), which this module only uses, so that it need not depend on the widget.
 */
export interface ResumeLinkSigner {
  sign(claims: { agentId: string; conversationId: string }, now?: Date): string;
}

const EMAILS_POLICY = { name: "visitor-emails", limit: VISITOR_EMAILS_PER_MINUTE, windowSeconds: 60 };
const TRANSCRIPTS_POLICY = { name: "visitor-transcripts", limit: TRANSCRIPTS_PER_HOUR, windowSeconds: 3600 };

/** One address: trimmed, lower-cased domain kept as typed; what a mail server accepts, no display names. */
export const visitorEmailInput = z.strictObject({
  email: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(VISITOR_EMAIL_MAX_CHARS, `must be at most ${VISITOR_EMAIL_MAX_CHARS} characters`)
    .pipe(z.email("must be an email address")),
});

/** The widget session asking: its agent, the conversation it holds (null: none yet), its IP. */
export interface VisitorSessionRef {
  agentId: string;
  sessionConversationId: string | null;
  clientIp: string;
}

export interface VisitorMailContext extends ConversationContext {
  mailer?: Mailer;
  visitorMailDelayMs?: number;
}

/** Whether the widget asks for an address at all: only when this server sends email. */
export function emailEnabled(ctx: { mailer?: Mailer }): boolean {
  return ctx.mailer !== undefined;
}

async function sessionConversation(ctx: VisitorMailContext, session: VisitorSessionRef) {
  if (session.sessionConversationId === null) throw new AppError(CONVERSATIONS_ERRORS.CONVERSATION_NOT_FOUND);
  const row = await ctx.db.prisma.conversation.findFirst({
    where: { id: session.sessionConversationId, agentId: session.agentId },
    select: { id: true, visitorEmail: true, agent: { select: { workspaceId: true } } },
  });
  if (!row) throw new AppError(CONVERSATIONS_ERRORS.CONVERSATION_NOT_FOUND);
  return row;
}

/**
 * The visitor gives their address for their session's conversation. Refused: 409 `Email is not
 * available` without a mailer; 429 past VISITOR_EMAILS_PER_MINUTE from one IP; 404 `Conversation
 * not found` before the session has a conversation. Returns the stored address.
 */
export async function setVisitorEmail(
  ctx: VisitorMailContext,
  session: VisitorSessionRef,
  input: z.output<typeof visitorEmailInput>,
): Promise<string> {
  if (!emailEnabled(ctx)) throw new AppError(CONVERSATIONS_ERRORS.EMAIL_OFF);
  await enforceRateLimit(ctx.limiters.configured(EMAILS_POLICY), limitAddress(session.clientIp));
  const conversation = await sessionConversation(ctx, session);
  await ctx.db.prisma.conversation.update({ where: { id: conversation.id }, data: { visitorEmail: input.email } });
  await publishInbox(ctx.live, conversation.agent.workspaceId, { conversationId: conversation.id });
  return input.email;
}

/** A widget socket holds the conversation until `until` (renewed while it lives; null: it closed). */
export async function markVisitorPresence(db: Database, conversationId: string, now: Date | null): Promise<void> {
  const until = now ? new Date(now.getTime() + VISITOR_PRESENCE_TTL_MS) : null;
  await db.prisma.conversation.updateMany({ where: { id: conversationId }, data: { visitorPresentUntil: until } });
}

/** Away: no widget socket has held the conversation within VISITOR_PRESENCE_TTL_MS. */
export function visitorAway(row: { visitorPresentUntil: Date | null }, now: Date): boolean {
  return row.visitorPresentUntil === null || row.visitorPresentUntil.getTime() <= now.getTime();
}

/**
 * After a person's reply is stored: when the visitor is away and gave an address (and this
 * server sends email), a mail is due at the end of the batch window (an earlier pending one is
 * kept, so later replies join it). Returns whether a mail is now pending.
 */
export async function scheduleReplyMail(ctx: VisitorMailContext, conversationId: string, now: Date = ctx.now()): Promise<boolean> {
  if (!emailEnabled(ctx)) return false;
  const row = await ctx.db.prisma.conversation.findUnique({
    where: { id: conversationId },
    select: { visitorEmail: true, visitorPresentUntil: true, visitorMailDueAt: true, test: true },
  });
  if (!row?.visitorEmail || row.test || !visitorAway(row, now)) return false;
  if (row.visitorMailDueAt) return true;
  await ctx.db.prisma.conversation.updateMany({
    where: { id: conversationId, visitorMailDueAt: null },
    data: { visitorMailDueAt: new Date(now.getTime() + (ctx.visitorMailDelayMs ?? VISITOR_MAIL_BATCH_MS)) },
  });
  return true;
}

/** The link in a mail: the page the widget ran on (else the help centre) with the resume token in the fragment (never sent to a server's log). */
export function resumeLink(
  appUrl: string,
  tokens: ResumeLinkSigner,
  row: { id: string; agentId: string; firstPageUrl: string | null },
  now: Date,
): string {
  const token = tokens.sign({ agentId: row.agentId, conversationId: row.id }, now);
  let base = `${appUrl}/help/${encodeURIComponent(row.agentId)}`;
  if (row.firstPageUrl && /^https?:\/\//i.test(row.firstPageUrl) && URL.canParse(row.firstPageUrl)) base = row.firstPageUrl;
  const url = new URL(base);
  url.hash = `parley-resume=${token}`;
  return url.toString();
}

/** The resume token a link carries in its fragment, or null. */
export function resumeTokenOfLink(link: string): string | null {
  const hash = URL.canParse(link) ? new URL(link).hash : "";
  const match = /^#parley-resume=([A-Za-z0-9_.-]+)$/.exec(hash);
  return match?.[1] ?? null;
}

/** Text from visitors and the team, safe inside the HTML mail. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

/** A subject line never carries a line break (header injection) and stays short. */
function subjectLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, " ").slice(0, 150);
}

type MailLine = { who: string; text: string; at: Date };

function mailBody(intro: string, lines: MailLine[], link: string, outro: string): { text: string; html: string } {
  const text = [
    intro,
    "",
    ...lines.flatMap((line) => [`${line.who} (${line.at.toISOString().slice(0, 16).replace("T", " ")} UTC):`, line.text, ""]),
    `Continue the conversation: ${link}`,
    "",
    outro,
  ].join("\n");
  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    ...lines.map((line) => `<p><strong>${escapeHtml(line.who)}</strong><br>${escapeHtml(line.text).replace(/\n/g, "<br>")}</p>`),
    `<p><a href="${escapeHtml(link)}">Continue the conversation</a></p>`,
    `<p style="color:#666">${escapeHtml(outro)}</p>`,
  ].join("\n");
  return { text, html };
}

const RESUME_OUTRO = "The link opens this conversation for a limited time; anyone with it can read and write in it, so do not forward it.";

async function teamName(db: Database, conversationId: string): Promise<string> {
  const row = await db.prisma.conversation.findUnique({
    where: { id: conversationId },
    select: { agent: { select: { name: true, workspace: { select: { name: true } } } } },
  });
  return row?.agent.workspace.name || row?.agent.name || "Support";
}

/** The reply mail of one conversation: the team's replies since the visitor last wrote (and since the last mail). */
export async function replyMail(
  ctx: VisitorMailContext,
  tokens: ResumeLinkSigner,
  conversationId: string,
  now: Date,
): Promise<MailMessage | null> {
  const row = await ctx.db.prisma.conversation.findUnique({
    where: { id: conversationId },
    select: { id: true, agentId: true, firstPageUrl: true, visitorEmail: true, visitorMailedAt: true },
  });
  if (!row?.visitorEmail) return null;
  const lastVisitor = await ctx.db.prisma.message.findFirst({
    where: { conversationId, role: "user" },
    orderBy: { sequence: "desc" },
    select: { sequence: true },
  });
  const replies = await ctx.db.prisma.message.findMany({
    where: {
      conversationId,
      role: "human",
      sequence: { gt: lastVisitor?.sequence ?? -1 },
      ...(row.visitorMailedAt ? { createdAt: { gt: row.visitorMailedAt } } : {}),
    },
    orderBy: { sequence: "asc" },
    select: { text: true, createdAt: true },
  });
  if (replies.length === 0) return null;
  const team = await teamName(ctx.db, conversationId);
  const link = resumeLink(ctx.appUrl, tokens, row, now);
  const intro =
    replies.length === 1 ? `${team} replied to your conversation:` : `${team} sent ${replies.length} replies to your conversation:`;
  const body = mailBody(
    intro,
    replies.map((reply) => ({ who: team, text: reply.text, at: reply.createdAt })),
    link,
    RESUME_OUTRO,
  );
  return { to: row.visitorEmail, subject: subjectLine(`New reply from ${team}`), ...body };
}

/**
 * Sends the reply mails that are due (visitorMailDueAt passed): each claimed by one instance (the
 * due time cleared where it is still the one read), sent, and its time kept as visitorMailedAt.
 * A visitor who came back meanwhile gets no mail (they saw the replies in the widget).
 */
export async function sendDueReplyMails(
  ctx: VisitorMailContext,
  tokens: ResumeLinkSigner,
  now: Date = ctx.now(),
  batch = 50,
): Promise<number> {
  const mailer = ctx.mailer;
  if (!mailer) return 0;
  const due = await ctx.db.prisma.conversation.findMany({
    where: { visitorMailDueAt: { lte: now } },
    orderBy: { visitorMailDueAt: "asc" },
    take: batch,
    select: { id: true, visitorMailDueAt: true, visitorPresentUntil: true },
  });
  let sent = 0;
  for (const row of due) {
    const claimed = await ctx.db.prisma.conversation.updateMany({
      where: { id: row.id, visitorMailDueAt: row.visitorMailDueAt },
      data: { visitorMailDueAt: null },
    });
    if (claimed.count === 0) continue;
    if (!visitorAway(row, now)) continue;
    try {
      const mail = await replyMail(ctx, tokens, row.id, now);
      if (!mail) continue;
      await mailer.send(mail);
      await ctx.db.prisma.conversation.update({ where: { id: row.id }, data: { visitorMailedAt: now } });
      sent++;
    } catch (error) {
      // Neither the address nor the link (it opens the conversation) goes to the log.
      logger.warn("reply mail not sent", { conversationId: row.id, error: describeError(error) });
    }
  }
  return sent;
}

/**
 * The visitor asks for the transcript of their session's conversation, mailed to the address they
 * gave. Refused: 409 `Email is not available` without a mailer; 404 `Conversation not found`
 * without a conversation; 409 `No email address for this conversation`; 429 past
 * TRANSCRIPTS_PER_HOUR for the conversation.
 */
export async function mailTranscript(
  ctx: VisitorMailContext,
  tokens: ResumeLinkSigner,
  session: VisitorSessionRef,
): Promise<{ to: string }> {
  const mailer = ctx.mailer;
  if (!mailer) throw new AppError(CONVERSATIONS_ERRORS.EMAIL_OFF);
  const conversation = await sessionConversation(ctx, session);
  if (!conversation.visitorEmail) throw new AppError(CONVERSATIONS_ERRORS.VISITOR_EMAIL_MISSING);
  await enforceRateLimit(ctx.limiters.configured(TRANSCRIPTS_POLICY), conversation.id);
  const mail = await transcriptMail(ctx, tokens, conversation.id, ctx.now());
  await mailer.send(mail);
  return { to: mail.to };
}

/** The transcript as a mail: every message but tool traffic, who wrote it, and the resume link. */
export async function transcriptMail(
  ctx: VisitorMailContext,
  tokens: ResumeLinkSigner,
  conversationId: string,
  now: Date,
): Promise<MailMessage> {
  const row = await ctx.db.prisma.conversation.findUniqueOrThrow({
    where: { id: conversationId },
    select: { id: true, agentId: true, firstPageUrl: true, visitorEmail: true },
  });
  const messages = await ctx.db.prisma.message.findMany({
    where: { conversationId, role: { in: ["user", "agent", "human"] } },
    orderBy: { sequence: "desc" },
    take: TRANSCRIPT_MAX_MESSAGES,
    select: { role: true, text: true, createdAt: true },
  });
  const team = await teamName(ctx.db, conversationId);
  const lines = messages
    .reverse()
    .filter((message) => message.text.trim() !== "")
    .map((message) => ({ who: message.role === "user" ? "You" : team, text: message.text, at: message.createdAt }));
  const body = mailBody(`Your conversation with ${team}:`, lines, resumeLink(ctx.appUrl, tokens, row, now), RESUME_OUTRO);
  return { to: row.visitorEmail ?? "", subject: subjectLine(`Your conversation with ${team}`), ...body };
}

/** The reply mails as a background task: every instance looks for due mails (each claimed once). */
export class VisitorMailTask implements BackgroundTask {
  readonly name = "visitor-mail";
  constructor(
    private readonly ctx: VisitorMailContext,
    private readonly tokens: ResumeLinkSigner,
  ) {}

  async run(): Promise<RunResult> {
    await sendDueReplyMails(this.ctx, this.tokens);
  }
}

export function visitorMailTask(work: VisitorMailTask, intervalMs = VISITOR_MAIL_TASK_INTERVAL_MS): ScheduledTask {
  return scheduleTask(work, { intervalMs });
}
