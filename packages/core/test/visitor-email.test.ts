// Reaching the visitor by email (conversations/visitor-email.ts): the address refused with the
// widget's exact words or stored (only for the session's own conversation), away detection
// deciding mail or no mail, replies batched into one mail, the signed resume link (verify, expiry,
// tampering), the transcript mail (user text escaped in its HTML), and nothing asked, stored or
// sent without SMTP. A tiny in-process SMTP server (smtp-server) receives the mails.
import { messagingAgent, type TestContext } from "@parley/testing/context";
import { createAgentWithKey, createMessagingContext, type TestAgent } from "@parley/testing/messaging";
import { decodedMail as decoded, startTestSmtp, type TestSmtp } from "@parley/testing/smtp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { MessagingAgent } from "../src/agents/keys/message-auth.ts";
import { replyToConversation } from "../src/conversations/inbox/inbox.ts";
import { TRANSCRIPTS_PER_HOUR, VISITOR_MAIL_BATCH_MS, VISITOR_PRESENCE_TTL_MS } from "../src/conversations/limits.ts";
import { runTurn } from "../src/conversations/turn/turn.ts";
import {
  emailEnabled,
  mailTranscript,
  markVisitorPresence,
  resumeTokenOfLink,
  scheduleReplyMail,
  sendDueReplyMails,
  setVisitorEmail,
  transcriptMail,
} from "../src/conversations/visitor-email.ts";
import { AppError } from "../src/platform/errors.ts";
import { senderFor, smtpMailer } from "../src/platform/mail.ts";
import { parseClientFrame } from "../src/widget/protocol.ts";
import { createResumeTokens } from "../src/widget/resume.ts";

const WORKSPACE = "ws-demo";
const ADMIN = { userId: "user-admin", workspaceId: WORKSPACE, role: "owner" } as const;
const SECRET = "a-test-secret-that-is-long-enough-for-hmac";
const tokens = createResumeTokens(SECRET);
let ipCount = 0;
const nextIp = () => `198.51.100.${++ipCount % 250}`;

const clock = new Date("2026-12-06T10:00:00.000Z");
let ctx: TestContext;
let agent: TestAgent;
let messaging: MessagingAgent;
let smtp: TestSmtp;

beforeAll(async () => {
  ctx = await createMessagingContext({ now: () => clock });
  agent = await createAgentWithKey(ctx);
  messaging = messagingAgent({ id: agent.id, workspaceId: WORKSPACE });
  smtp = await startTestSmtp();
});

afterEach(() => {
  ctx.mailer?.close();
  ctx.mailer = undefined;
  ctx.visitorMailDelayMs = undefined;
  smtp.mails.length = 0;
});

afterAll(async () => {
  await smtp.close();
  await ctx.close();
});

const withSmtp = () => {
  ctx.mailer = smtpMailer(`smtp://127.0.0.1:${smtp.port}`, senderFor("https://parley.example"));
};

async function conversation(message = "I need a person"): Promise<string> {
  const turn = await runTurn(ctx, messaging, { message }, { channel: "widget", pageUrl: "https://shop.example/pricing" });
  return turn.conversationId;
}

const session = (conversationId: string | null, ip = nextIp()) => ({
  agentId: agent.id,
  sessionConversationId: conversationId,
  clientIp: ip,
});

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
    return "ok";
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.status, error: error.message };
  }
}

const reply = (id: string, text: string) => replyToConversation(ctx.db, ADMIN, { id, text }, clock, ctx.live);

describe("the visitor's address", () => {
  it("is refused with the field's words when it is not an address, too long or empty", () => {
    expect(parseClientFrame(JSON.stringify({ type: "email", email: "ada at example" }))).toEqual({
      ok: false,
      error: "Invalid request",
      details: "email: must be an email address",
    });
    expect(parseClientFrame(JSON.stringify({ type: "email", email: "   " }))).toEqual({
      ok: false,
      error: "Invalid request",
      details: "email: must not be empty",
    });
    expect(parseClientFrame(JSON.stringify({ type: "email", email: `${"a".repeat(250)}@example.com` }))).toEqual({
      ok: false,
      error: "Invalid request",
      details: "email: must be at most 254 characters",
    });
    expect(parseClientFrame(JSON.stringify({ type: "email", email: "ada@example.com", conversationId: "x" }))).toMatchObject({
      ok: false,
      details: "conversationId: is not a known field",
    });
    expect(parseClientFrame(JSON.stringify({ type: "email", email: " ada@example.com " }))).toEqual({
      ok: true,
      frame: { type: "email", email: "ada@example.com" },
    });
  });

  it("is stored for the session's own conversation only (the inbox names a visitor by it)", async () => {
    withSmtp();
    const id = await conversation();
    expect(await setVisitorEmail(ctx, session(id), { email: "ada@example.com" })).toBe("ada@example.com");
    const row = await ctx.db.prisma.conversation.findUniqueOrThrow({ where: { id }, select: { visitorEmail: true } });
    expect(row.visitorEmail).toBe("ada@example.com");
    // Before the session has a conversation, or another agent's session: not found, nothing stored.
    expect(await refusal(setVisitorEmail(ctx, session(null), { email: "eve@example.com" }))).toEqual({
      status: 404,
      error: "Conversation not found",
    });
    expect(await refusal(setVisitorEmail(ctx, { ...session(id), agentId: "another-agent" }, { email: "eve@example.com" }))).toEqual({
      status: 404,
      error: "Conversation not found",
    });
  });

  it("is refused past 5 a minute from one IP", async () => {
    withSmtp();
    const id = await conversation();
    for (let i = 0; i < 5; i++) await setVisitorEmail(ctx, session(id, "192.0.2.77"), { email: `v${i}@example.com` });
    expect(await refusal(setVisitorEmail(ctx, session(id, "192.0.2.77"), { email: "v6@example.com" }))).toEqual({
      status: 429,
      error: "Rate limit exceeded",
    });
  });

  it("is neither asked for nor stored, and nothing is sent, without SMTP", async () => {
    const id = await conversation();
    expect(emailEnabled(ctx)).toBe(false);
    expect(await refusal(setVisitorEmail(ctx, session(id), { email: "ada@example.com" }))).toEqual({
      status: 409,
      error: "Email is not available",
    });
    await ctx.db.prisma.conversation.update({ where: { id }, data: { visitorEmail: "ada@example.com" } });
    await reply(id, "Hello from the team");
    expect(await scheduleReplyMail(ctx, id, clock)).toBe(false);
    expect(await sendDueReplyMails(ctx, tokens, new Date(clock.getTime() + VISITOR_MAIL_BATCH_MS))).toBe(0);
    expect(await refusal(mailTranscript(ctx, tokens, session(id)))).toEqual({ status: 409, error: "Email is not available" });
    expect(smtp.mails).toEqual([]);
  });
});

describe("replies while the visitor is away", () => {
  it("are not mailed while a widget socket holds the conversation, and are once it has gone", async () => {
    withSmtp();
    const id = await conversation();
    await setVisitorEmail(ctx, session(id), { email: "ada@example.com" });
    await markVisitorPresence(ctx.db, id, clock);
    await reply(id, "Present reply");
    expect(await scheduleReplyMail(ctx, id, clock)).toBe(false);
    // The socket stopped renewing: past its time to live the visitor is away.
    const later = new Date(clock.getTime() + VISITOR_PRESENCE_TTL_MS + 1);
    expect(await scheduleReplyMail(ctx, id, later)).toBe(true);
    // The socket closed: away at once.
    await markVisitorPresence(ctx.db, id, null);
    expect(await scheduleReplyMail(ctx, id, clock)).toBe(true);
    // (Left unsent: the tests below count their own mails.)
    await ctx.db.prisma.conversation.update({ where: { id }, data: { visitorMailDueAt: null } });
  });

  it("go out as one mail per batch window, with the replies, escaped, and a resume link for that conversation", async () => {
    withSmtp();
    const id = await conversation("Where is my order?");
    await setVisitorEmail(ctx, session(id), { email: "ada@example.com" });
    await markVisitorPresence(ctx.db, id, null);
    await reply(id, "Found it: <b>shipped</b> today");
    expect(await scheduleReplyMail(ctx, id, clock)).toBe(true);
    await reply(id, "It arrives on Tuesday");
    expect(await scheduleReplyMail(ctx, id, clock)).toBe(true);
    // Not yet due within the window.
    expect(await sendDueReplyMails(ctx, tokens, new Date(clock.getTime() + VISITOR_MAIL_BATCH_MS - 1))).toBe(0);
    expect(await sendDueReplyMails(ctx, tokens, new Date(clock.getTime() + VISITOR_MAIL_BATCH_MS))).toBe(1);
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0];
    expect(mail?.to).toEqual(["ada@example.com"]);
    const body = decoded(mail?.raw ?? "");
    expect(body).toContain("sent 2 replies to your conversation");
    expect(body).toContain("Found it: <b>shipped</b> today");
    expect(body).toContain("Found it: &lt;b&gt;shipped&lt;/b&gt; today");
    expect(body).not.toContain("<b>shipped</b> today</p>");
    expect(body).toContain("It arrives on Tuesday");
    const link = /Continue the conversation: (\S+)/.exec(body)?.[1] ?? "";
    expect(link.startsWith("https://shop.example/pricing#parley-resume=")).toBe(true);
    expect(tokens.verify(resumeTokenOfLink(link) ?? "", clock)).toEqual({ agentId: agent.id, conversationId: id });
    // Sent once: the next pass finds nothing due.
    expect(await sendDueReplyMails(ctx, tokens, new Date(clock.getTime() + 2 * VISITOR_MAIL_BATCH_MS))).toBe(0);
    expect(smtp.mails).toHaveLength(1);
  });

  it("are gathered for the server's own window when it sets one (VISITOR_MAIL_DELAY_SECONDS)", async () => {
    withSmtp();
    ctx.visitorMailDelayMs = 5_000;
    const id = await conversation("Where is my order?");
    await setVisitorEmail(ctx, session(id), { email: "ada@example.com" });
    await markVisitorPresence(ctx.db, id, null);
    await reply(id, "It arrives on Tuesday");
    expect(await scheduleReplyMail(ctx, id, clock)).toBe(true);
    expect(await sendDueReplyMails(ctx, tokens, new Date(clock.getTime() + 4_999))).toBe(0);
    expect(await sendDueReplyMails(ctx, tokens, new Date(clock.getTime() + 5_000))).toBe(1);
    expect(smtp.mails.map((mail) => mail.to)).toEqual([["ada@example.com"]]);
  });

  it("are not mailed when the visitor came back before the mail was due", async () => {
    withSmtp();
    const id = await conversation();
    await setVisitorEmail(ctx, session(id), { email: "ada@example.com" });
    await markVisitorPresence(ctx.db, id, null);
    await reply(id, "Are you there?");
    expect(await scheduleReplyMail(ctx, id, clock)).toBe(true);
    await markVisitorPresence(ctx.db, id, new Date(clock.getTime() + VISITOR_MAIL_BATCH_MS - 1000));
    expect(await sendDueReplyMails(ctx, tokens, new Date(clock.getTime() + VISITOR_MAIL_BATCH_MS))).toBe(0);
    expect(smtp.mails).toEqual([]);
  });

  it("are not mailed without an address", async () => {
    withSmtp();
    const id = await conversation();
    await reply(id, "Hello");
    expect(await scheduleReplyMail(ctx, id, clock)).toBe(false);
  });
});

describe("the signed resume link", () => {
  it("verifies for its one conversation, and not once expired or tampered with", () => {
    const token = tokens.sign({ agentId: "agent-1", conversationId: "conv-1" }, clock);
    expect(tokens.verify(token, clock)).toEqual({ agentId: "agent-1", conversationId: "conv-1" });
    expect(tokens.verify(token, new Date(clock.getTime() + 7 * 24 * 3600 * 1000))).toBeNull();
    const [payload, signature] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ a: "agent-1", c: "conv-2", e: 4_000_000_000 })).toString("base64url");
    expect(tokens.verify(`${forged}.${signature}`, clock)).toBeNull();
    expect(tokens.verify(`${payload}.${signature?.slice(0, -2)}AA`, clock)).toBeNull();
    expect(createResumeTokens(`${SECRET}-other`).verify(token, clock)).toBeNull();
  });
});

describe("the transcript by mail", () => {
  it("carries every message with who wrote it, escaped, and the resume link", async () => {
    withSmtp();
    const id = await conversation("Is <script>alert(1)</script> safe?");
    await setVisitorEmail(ctx, session(id), { email: "ada@example.com" });
    await reply(id, "Yes & no");
    const mail = await transcriptMail(ctx, tokens, id, clock);
    expect(mail.to).toBe("ada@example.com");
    expect(mail.text).toContain("You (");
    expect(mail.text).toContain("Is <script>alert(1)</script> safe?");
    expect(mail.text).toContain("Yes & no");
    expect(mail.html).toContain("Is &lt;script&gt;alert(1)&lt;/script&gt; safe?");
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("Yes &amp; no");
    expect(tokens.verify(resumeTokenOfLink(/Continue the conversation: (\S+)/.exec(mail.text)?.[1] ?? "") ?? "", clock)).toEqual({
      agentId: agent.id,
      conversationId: id,
    });
    expect(await mailTranscript(ctx, tokens, session(id))).toEqual({ to: "ada@example.com" });
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]?.to).toEqual(["ada@example.com"]);
  });

  it("is refused without an address, for another session, and past its hourly limit", async () => {
    withSmtp();
    const id = await conversation();
    expect(await refusal(mailTranscript(ctx, tokens, session(id)))).toEqual({
      status: 409,
      error: "No email address for this conversation",
    });
    expect(await refusal(mailTranscript(ctx, tokens, session(null)))).toEqual({ status: 404, error: "Conversation not found" });
    await setVisitorEmail(ctx, session(id), { email: "ada@example.com" });
    for (let i = 0; i < TRANSCRIPTS_PER_HOUR; i++) await mailTranscript(ctx, tokens, session(id));
    expect(await refusal(mailTranscript(ctx, tokens, session(id)))).toEqual({ status: 429, error: "Rate limit exceeded" });
    expect(smtp.mails).toHaveLength(TRANSCRIPTS_PER_HOUR);
  });
});
