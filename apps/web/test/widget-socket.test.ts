// The widget / SDK WebSocket protocol parley.v1, end to end over a real socket: a real
// http server on 127.0.0.1 with the app's /ws upgrade handler, a real `ws` client, a real
// (throwaway) database, and the fake OpenAI server for the LLM agent's browser-side tools.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { MailMessage } from "@parley/core";
import { changeConversation, getConversation, replyToConversation, scheduleReplyMail, signalTyping } from "@parley/core/conversations";
import { renderMessageHtml } from "@parley/core/markdown";
import { createMemoryLiveBus, createResumeTokens, type ServerFrame } from "@parley/core/widget";
import type { TestContext } from "@parley/testing/context";
import { brokenStream, type FakeOpenAi, startFakeOpenAi, streamedText, textResponse, toolCallResponse } from "@parley/testing/fake-openai";
import { createAgentWithKey, createMessagingContext } from "@parley/testing/messaging";
import { connect as connectSdk, type Message, type ParleyEvents, type ResumeStorage, type WebSocketConstructor } from "@parley/web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createWidgetSocketServer, type WidgetSocketServer } from "~/server/widget-socket.ts";
import { messagesRoute } from "./support/routes.ts";

const ORIGIN = "http://shop.test:8080";
const SECRET = "widget-test-secret-0123456789abcdef0123456789";
const TOOL_TIMEOUT_MS = 700;

let ctx: TestContext;
let fake: FakeOpenAi;
let http: Server;
let sockets: WidgetSocketServer;
let url: string;

async function createAgent(id: string, fields: Record<string, unknown> = {}) {
  await ctx.db.prisma.agent.create({
    data: {
      id,
      workspaceId: "ws-demo",
      name: `Widget agent ${id}`,
      allowedOrigins: [ORIGIN],
      sources: { create: [{ sourceId: "src-start" }, { sourceId: "src-billing" }] },
      ...fields,
    },
  });
}

beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKey: "sk-test" });
  ctx = await createMessagingContext({ llm: { baseUrl: fake.baseUrl, apiKey: "sk-test", model: "fake-model", timeoutMs: 10_000 } });
  ctx.live = createMemoryLiveBus();
  await createAgent("w-knowledge");
  await createAgent("w-llm", { engine: "llm" });
  await createAgent("w-inactive", { active: false });
  await createAgent("w-quota", { monthlyConversationLimit: 0 });
  await createAgent("w-limited", { widgetMessagesPerConnectionPerMinute: 1 });
  await createAgent("w-other");
  sockets = createWidgetSocketServer({
    getContext: async () => ctx,
    secret: () => SECRET,
    toolTimeoutMs: TOOL_TIMEOUT_MS,
    helloTimeoutMs: 1_000,
    emailPromptAfterMs: 300,
  });
  http = createServer((_request, response) => response.writeHead(404).end());
  http.on("upgrade", (request, socket, head) => sockets.handleUpgrade(request, socket, head));
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/ws`;
});

afterAll(async () => {
  await sockets?.close();
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
  await ctx?.live?.close();
  await ctx?.close();
  await fake?.close();
});

interface Client {
  ws: WebSocket;
  frames: ServerFrame[];
  /** The next frame of this type (frames already received count). */
  next<T extends ServerFrame["type"]>(type: T, timeoutMs?: number): Promise<Extract<ServerFrame, { type: T }>>;
  send(frame: unknown): void;
  closed: Promise<{ code: number; reason: string }>;
}

function connect(options: { origin?: string | null; protocol?: string | null } = {}): Promise<Client> {
  const origin = options.origin === undefined ? ORIGIN : options.origin;
  const protocol = options.protocol === undefined ? "parley.v1" : options.protocol;
  const ws = new WebSocket(url, protocol === null ? [] : [protocol], origin === null ? {} : { origin });
  const frames: ServerFrame[] = [];
  const consumed = new Set<ServerFrame>();
  const waiters: Array<() => void> = [];
  ws.on("message", (data) => {
    frames.push(JSON.parse(data.toString()) as ServerFrame);
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on("close", (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const wake of waiters.splice(0)) wake();
    });
  });
  const client: Client = {
    ws,
    frames,
    closed,
    send: (frame) => ws.send(typeof frame === "string" ? frame : JSON.stringify(frame)),
    next(type, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${type} frame; got ${JSON.stringify(frames)}`)), timeoutMs);
        const check = () => {
          const found = frames.find((frame) => frame.type === type && !consumed.has(frame));
          if (found) {
            consumed.add(found);
            clearTimeout(timer);
            resolve(found as Extract<ServerFrame, { type: typeof type }>);
          } else if (ws.readyState === ws.CLOSED) {
            clearTimeout(timer);
            reject(new Error(`closed before a ${type} frame; got ${JSON.stringify(frames)}`));
          } else {
            waiters.push(check);
          }
        };
        check();
      });
    },
  };
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(client));
    ws.once("error", reject);
  });
}

async function hello(agentId: string, extra: Record<string, unknown> = {}, options: Parameters<typeof connect>[0] = {}) {
  const client = await connect(options);
  client.send({ type: "hello", agentId, ...extra });
  return client;
}

describe("connection checks", () => {
  it("closes 4404 for an unknown agent and for an inactive one", async () => {
    for (const agentId of ["no-such-agent", "w-inactive"]) {
      const client = await hello(agentId);
      expect(await client.closed).toEqual({ code: 4404, reason: "Agent not found" });
    }
  });

  it("closes 4403 when the Origin is not exactly an allowed origin", async () => {
    for (const origin of ["http://evil.test", "http://shop.test", "https://shop.test:8080", "http://shop.test:8081", null]) {
      const client = await hello("w-knowledge", {}, { origin });
      expect(await client.closed).toEqual({ code: 4403, reason: "Origin not allowed" });
    }
  });

  it("closes 4426 without the parley.v1 subprotocol, 4400 for a frame before hello, 4408 without hello", async () => {
    const noProtocol = await connect({ protocol: null });
    expect((await noProtocol.closed).code).toBe(4426);

    const early = await connect();
    early.send({ type: "message", text: "hi" });
    expect(await early.closed).toEqual({ code: 4400, reason: "Protocol error" });

    const garbage = await connect();
    garbage.send("not json");
    expect((await garbage.next("error")).details).toBe("frame: must be JSON");
    expect((await garbage.closed).code).toBe(4400);

    const silent = await connect();
    expect(await silent.closed).toEqual({ code: 4408, reason: "No hello received" });
  });

  it("never accepts an API key: unknown hello fields are refused", async () => {
    const client = await hello("w-knowledge", { apiKey: "pk_123" });
    expect((await client.next("error")).details).toBe("apiKey: is not a known field");
    expect((await client.closed).code).toBe(4400);
  });
});

describe("the widget on another site (the getting-started checklist)", () => {
  it("records the first connection from an allowed site other than this server's help centre, once", async () => {
    const appOrigin = new URL(ctx.appUrl).origin;
    await createAgent("w-site-seen", { allowedOrigins: [appOrigin, ORIGIN, "http://second.test"] });
    const seen = () =>
      ctx.db.prisma.agent.findUniqueOrThrow({ where: { id: "w-site-seen" }, select: { widgetSiteSeenAt: true, widgetSiteOrigin: true } });

    const helpCentre = await hello("w-site-seen", {}, { origin: appOrigin });
    await helpCentre.next("ready");
    expect(await seen()).toEqual({ widgetSiteSeenAt: null, widgetSiteOrigin: null });

    const shop = await hello("w-site-seen");
    await shop.next("ready");
    const first = await seen();
    expect(first.widgetSiteOrigin).toBe(ORIGIN);
    expect(first.widgetSiteSeenAt).toBeInstanceOf(Date);

    const second = await hello("w-site-seen", {}, { origin: "http://second.test" });
    await second.next("ready");
    expect(await seen()).toEqual(first);
    for (const client of [helpCentre, shop, second]) client.ws.close();
  });
});

describe("the widget's settings at connect", () => {
  it("sends the agent's title, greeting, accent and suggestions in ready; hidden articles are left out", async () => {
    await ctx.db.prisma.article.create({
      data: { id: "w-draft-article", sourceId: "src-start", title: "Draft", content: "Not yet", published: false },
    });
    await createAgent("w-branded", {
      branding: {
        widgetTitle: "Acme support",
        widgetGreeting: "Hello from Acme!",
        widgetAccentColor: "#FFD500",
        suggestions: [
          { text: "How do I reset my password?", articleId: null },
          { text: "Reset guide", articleId: "art-reset-password" },
          { text: "Unpublished", articleId: "w-draft-article" },
        ],
      },
    });
    const client = await hello("w-branded");
    const ready = await client.next("ready");
    expect(ready.type === "ready" && ready.config).toEqual({
      title: "Acme support",
      greeting: "Hello from Acme!",
      accentColor: "#ffd500",
      // Black reads on a light yellow; white would not.
      accentTextColor: "#000000",
      suggestions: [
        { type: "question", text: "How do I reset my password?" },
        { type: "article", title: "Reset guide", url: `${ctx.appUrl}/help/w-branded/articles/art-reset-password` },
      ],
      // Voice is off unless an agent turns it on.
      voice: false,
    });
    client.ws.close();
  });
});

describe("a conversation over the socket", () => {
  it("answers from the knowledge base, creates the conversation on the widget channel, and resumes it", async () => {
    const client = await hello("w-knowledge", { visitor: { name: "Ada" }, pageUrl: "https://shop.example.com/pricing?plan=pro" });
    const ready = await client.next("ready");
    expect(ready).toEqual({
      type: "ready",
      conversationId: null,
      resumeToken: null,
      status: "active",
      person: null,
      notice: null,
      messages: [],
      closing: null,
      // No SMTP_URL in this test: the widget never asks for an address.
      email: { enabled: false, address: null },
      // No settings in the panel: the defaults.
      config: {
        title: "Chat with us",
        greeting: "Hi! How can we help you today?",
        accentColor: "#0b57d0",
        accentTextColor: "#ffffff",
        suggestions: [],
        voice: false,
      },
    });

    client.send({ type: "message", text: "How do I reset my password?", clientMessageId: "m1" });
    expect(await client.next("typing")).toEqual({ type: "typing", active: true });
    const created = await client.next("ready");
    expect(created.conversationId).toEqual(expect.any(String));
    expect(created.resumeToken).toEqual(expect.any(String));
    const reply = await client.next("message");
    expect(reply).toMatchObject({ role: "agent", clientMessageId: "m1", toolCalls: [{ name: "search_knowledge_base" }] });
    // The reply's Markdown as HTML from the server's one sanitiser (the widget renders no Markdown itself).
    expect(reply.html).toBe(renderMessageHtml(reply.text));
    // The article's five steps arrive as a numbered list, the paragraph after them as a paragraph.
    expect(reply.html).toMatch(
      /^<p>Hi Ada, from “How to reset your password”:<\/p>\n<ol>\n<li>Go to the sign-in page at app\.acmecloud\.example\/login\.<\/li>\n(?:<li>[^<]+<\/li>\n){4}<\/ol>\n<p>The reset link works once /,
    );
    expect(reply.richContent).toEqual([
      { type: "articles", articles: expect.arrayContaining([expect.objectContaining({ id: "art-reset-password" })]) },
    ]);
    expect(await client.next("typing")).toEqual({ type: "typing", active: false });

    const conversationId = created.conversationId as string;
    const row = await ctx.db.prisma.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    expect(row).toMatchObject({
      channel: "widget",
      agentId: "w-knowledge",
      visitorName: "Ada",
      messageCount: 2,
      firstPageUrl: "https://shop.example.com/pricing?plan=pro",
    });
    const stored = await ctx.db.prisma.message.findFirstOrThrow({ where: { conversationId, sequence: 1 } });
    expect(stored.id).toBe(reply.id);
    client.ws.close();
    await client.closed;

    // After a reload: the same conversation, with its messages.
    const again = await hello("w-knowledge", { resumeToken: created.resumeToken });
    const resumed = await again.next("ready");
    expect(resumed.conversationId).toBe(conversationId);
    expect(resumed.messages.map((message) => message.role)).toEqual(["user", "agent"]);
    expect(resumed.messages.map((message) => message.html)).toEqual([undefined, reply.html]);
    again.send({ type: "message", text: "And my invoices?" });
    await again.next("message");
    expect((await ctx.db.prisma.conversation.findUniqueOrThrow({ where: { id: conversationId } })).messageCount).toBe(4);
    again.ws.close();

    // The token is bound to its agent: another agent starts a new conversation.
    const elsewhere = await hello("w-other", { resumeToken: created.resumeToken });
    expect((await elsewhere.next("error")).error).toBe("Invalid resume token");
    expect((await elsewhere.next("ready")).conversationId).toBeNull();
    elsewhere.ws.close();

    // A tampered or expired token is refused the same way.
    const tampered = await hello("w-knowledge", { resumeToken: `${created.resumeToken}x` });
    expect((await tampered.next("ready")).conversationId).toBeNull();
    tampered.ws.close();
    const expired = createResumeTokens(SECRET, 60).sign({ agentId: "w-knowledge", conversationId }, new Date(Date.now() - 120_000));
    const late = await hello("w-knowledge", { resumeToken: expired });
    expect((await late.next("ready")).conversationId).toBeNull();
    late.ws.close();
  });

  it("applies the messages API's limits as error frames and keeps the connection", async () => {
    const client = await hello("w-knowledge");
    await client.next("ready");
    client.send({ type: "message", text: "   ", clientMessageId: "blank" });
    expect(await client.next("error")).toEqual({
      type: "error",
      error: "Invalid request",
      details: "text: must not be empty",
      clientMessageId: "blank",
    });
    client.send({ type: "message", text: "x".repeat(10_001) });
    expect((await client.next("error")).details).toBe("text: must be at most 10000 characters");
    client.send({ type: "page_variables", variables: { plan: 3 } });
    expect((await client.next("error")).details).toBe("variables.plan: must be a string");
    client.send({ type: "shout" });
    expect((await client.next("error")).details).toBe("type: must be a known frame type");
    expect(client.ws.readyState).toBe(client.ws.OPEN);
    client.ws.close();
  });

  it("refuses text the database cannot store (NUL, lone surrogates) like the messages API, naming the field", async () => {
    const RULE = "must be valid Unicode text without NUL characters";
    const conversationsBefore = await ctx.db.prisma.conversation.count({ where: { agentId: "w-knowledge" } });
    const trackedBefore = await ctx.db.prisma.trackingEvent.count({ where: { agentId: "w-knowledge" } });
    const client = await hello("w-knowledge");
    await client.next("ready");
    client.send({ type: "message", text: "a\u0000b", clientMessageId: "nul" });
    expect(await client.next("error")).toEqual({
      type: "error",
      error: "Invalid request",
      details: `text: ${RULE}`,
      clientMessageId: "nul",
    });
    client.send({ type: "page_variables", variables: { plan: "pro\ud800" } });
    expect((await client.next("error")).details).toBe(`variables.plan: ${RULE}`);
    client.send({ type: "track", event: "clicked", properties: { "\u0000": "x" } });
    expect((await client.next("error")).details).toBe(`properties (a key): ${RULE}`);
    expect(client.ws.readyState).toBe(client.ws.OPEN);
    client.ws.close();
    expect(await ctx.db.prisma.conversation.count({ where: { agentId: "w-knowledge" } })).toBe(conversationsBefore);
    expect(await ctx.db.prisma.trackingEvent.count({ where: { agentId: "w-knowledge" } })).toBe(trackedBefore);

    // In hello: answered like any invalid hello (error frame, then 4400), before the database is asked.
    const badAgent = await hello("w-knowledge\u0000");
    expect(await badAgent.next("error")).toEqual({ type: "error", error: "Invalid request", details: `agentId: ${RULE}` });
    expect((await badAgent.closed).code).toBe(4400);
    const badVariables = await hello("w-knowledge", { pageVariables: { "\udc00": "x" } });
    expect((await badVariables.next("error")).details).toBe(`pageVariables (a key): ${RULE}`);
    expect((await badVariables.closed).code).toBe(4400);
  });

  it("sends the 402 quota text and the 429 rate limit as error frames", async () => {
    const quota = await hello("w-quota");
    await quota.next("ready");
    quota.send({ type: "message", text: "Hello", clientMessageId: "q" });
    expect(await quota.next("error")).toEqual({ type: "error", error: "Monthly conversation quota exhausted", clientMessageId: "q" });
    quota.ws.close();

    const limited = await hello("w-limited");
    await limited.next("ready");
    limited.send({ type: "message", text: "Hello" });
    await limited.next("message");
    limited.send({ type: "message", text: "Hello again", clientMessageId: "second" });
    const error = await limited.next("error");
    expect(error).toMatchObject({ error: "Rate limit exceeded", retryAfter: expect.any(Number), clientMessageId: "second" });
    expect((await ctx.db.prisma.conversation.findFirstOrThrow({ where: { agentId: "w-limited" } })).messageCount).toBe(2);
    limited.ws.close();
  });
});

describe("was this helpful? (the feedback frame)", () => {
  it("stores a 'no' on an answer as votes on its articles and a gap, and refuses other messages", async () => {
    const client = await hello("w-knowledge");
    await client.next("ready");
    client.send({ type: "feedback", messageId: "nothing-yet", helpful: false });
    expect(await client.next("error")).toMatchObject({ error: "Not found", details: "messageId: no such reply in this conversation" });
    client.send({ type: "message", text: "How do I reset my password?", clientMessageId: "f1" });
    const reply = await client.next("message");
    client.send({ type: "feedback", messageId: reply.id, helpful: false });
    expect(await client.next("feedback")).toEqual({ type: "feedback", messageId: reply.id, helpful: false });
    const gap = await ctx.db.prisma.knowledgeGap.findFirstOrThrow({ where: { agentId: "w-knowledge", kind: "not_helpful" } });
    expect(gap.question).toBe("How do I reset my password?");
    expect(await ctx.db.prisma.articleFeedback.count({ where: { articleId: "art-reset-password", helpful: false } })).toBeGreaterThan(0);
    client.send({ type: "feedback", messageId: reply.id, helpful: "no" });
    expect(await client.next("error")).toMatchObject({ error: "Invalid request" });
    client.ws.close();
  });
});

describe("how it went (the closing and rate frames)", () => {
  it("tells the visitor live when a person resolves, rates over the session that holds the conversation only, and resumes with the rating", async () => {
    const admin = { userId: "user-admin", workspaceId: "ws-demo", role: "owner" as const };
    const client = await hello("w-knowledge", { visitor: { name: "Ada" } });
    await client.next("ready");
    client.send({ type: "message", text: "Can I talk to a human?", clientMessageId: "h1" });
    const created = await client.next("ready");
    const conversationId = created.conversationId ?? "";
    expect(created.closing).toBeNull();
    await client.next("message");
    // Not resolved yet: refused with core's text.
    client.send({ type: "rate", conversationId, rating: "good" });
    expect(await client.next("error")).toEqual({ type: "error", error: "Conversation is not resolved" });

    await changeConversation(ctx.db, admin, conversationId, { kind: "resolve" }, new Date(), ctx.live);
    expect(await client.next("status")).toMatchObject({ status: "active", person: null, notice: null });
    expect(await client.next("closing")).toEqual({
      type: "closing",
      closing: { notice: "This conversation has been resolved. If you need anything else, just write here.", rating: null },
    });

    // Another visitor (their own session, no conversation): not found, nothing stored.
    const stranger = await hello("w-knowledge");
    await stranger.next("ready");
    stranger.send({ type: "rate", conversationId, rating: "bad" });
    expect(await stranger.next("error")).toEqual({ type: "error", error: "Conversation not found" });
    stranger.ws.close();

    client.send({ type: "rate", conversationId, rating: "excellent" });
    expect(await client.next("error")).toEqual({ type: "error", error: "Invalid request", details: "rating: must be good, okay or bad" });
    client.send({ type: "rate", conversationId, rating: "good", comment: "Quick and kind" });
    const rating = await client.next("rating");
    expect(rating).toMatchObject({ type: "rating", conversationId, rating: "good", comment: "Quick and kind" });
    expect(await ctx.db.prisma.conversationRating.findUniqueOrThrow({ where: { conversationId } })).toMatchObject({
      rating: "good",
      comment: "Quick and kind",
    });
    client.ws.close();

    // Back on the page later: the closing line and the rating given.
    const back = await hello("w-knowledge", { resumeToken: created.resumeToken });
    const resumed = await back.next("ready");
    const { type: _type, conversationId: _id, ...given } = rating;
    expect(resumed.closing).toEqual({
      notice: "This conversation has been resolved. If you need anything else, just write here.",
      rating: given,
    });
    // Writing again reopens it: the closing goes.
    back.send({ type: "message", text: "One more thing", clientMessageId: "h2" });
    expect(await back.next("closing")).toEqual({ type: "closing", closing: null });
    back.ws.close();
  });

  it("asks for an email on handoff when the server sends email, stores it from the visitor's own session only, mails the transcript, and counts the visitor away once the socket closes", async () => {
    const mails: MailMessage[] = [];
    ctx.mailer = {
      async send(message) {
        mails.push(message);
      },
      close() {},
    };
    try {
      const client = await hello("w-knowledge");
      expect((await client.next("ready")).email).toEqual({ enabled: true, address: null });
      client.send({ type: "message", text: "Can I talk to a human?", clientMessageId: "e1" });
      const created = await client.next("ready");
      const conversationId = created.conversationId ?? "";
      await client.next("message");
      expect(await client.next("email_prompt")).toEqual({ type: "email_prompt" });

      // Another visitor's session holds no conversation: not found, nothing stored.
      const stranger = await hello("w-knowledge");
      await stranger.next("ready");
      stranger.send({ type: "email", email: "eve@example.com" });
      expect(await stranger.next("error")).toEqual({ type: "error", error: "Conversation not found" });
      stranger.ws.close();

      client.send({ type: "email", email: "ada at example" });
      expect(await client.next("error")).toEqual({ type: "error", error: "Invalid request", details: "email: must be an email address" });
      client.send({ type: "email", email: "ada@example.com" });
      expect(await client.next("email")).toEqual({ type: "email", email: "ada@example.com" });
      const stored = await ctx.db.prisma.conversation.findUniqueOrThrow({
        where: { id: conversationId },
        select: { visitorEmail: true, visitorPresentUntil: true },
      });
      expect(stored.visitorEmail).toBe("ada@example.com");
      expect(stored.visitorPresentUntil?.getTime()).toBeGreaterThan(Date.now());

      client.send({ type: "transcript" });
      expect(await client.next("transcript")).toEqual({ type: "transcript", email: "ada@example.com" });
      expect(mails.map((mail) => mail.to)).toEqual(["ada@example.com"]);
      expect(mails[0]?.text).toContain("Can I talk to a human?");

      // The page closed: the visitor is away, so a person's reply is to be mailed.
      client.ws.close();
      await expect
        .poll(async () => (await ctx.db.prisma.conversation.findUniqueOrThrow({ where: { id: conversationId } })).visitorPresentUntil)
        .toBeNull();
      const admin = { userId: "user-admin", workspaceId: "ws-demo", role: "owner" as const };
      await replyToConversation(ctx.db, admin, { id: conversationId, text: "Here now" }, new Date(), ctx.live);
      expect(await scheduleReplyMail(ctx, conversationId)).toBe(true);

      // Back with the resume token: the address given, and no second prompt.
      const back = await hello("w-knowledge", { resumeToken: created.resumeToken });
      expect((await back.next("ready")).email).toEqual({ enabled: true, address: "ada@example.com" });
      back.ws.close();

      // A person is in the conversation but has not answered the visitor's latest message in time: asked then, not at once.
      const second = await hello("w-knowledge");
      await second.next("ready");
      second.send({ type: "message", text: "Can I talk to a human?", clientMessageId: "e2" });
      const other = await second.next("ready");
      await second.next("email_prompt");
      second.ws.close();
      await replyToConversation(ctx.db, admin, { id: other.conversationId ?? "", text: "Sam here" }, new Date(), ctx.live);
      const later = await hello("w-knowledge", { resumeToken: other.resumeToken });
      expect(await later.next("ready")).toMatchObject({ status: "escalated", person: expect.any(String) });
      later.send({ type: "message", text: "Still there?", clientMessageId: "e3" });
      await later.next("message");
      const sentAt = Date.now();
      await later.next("email_prompt");
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(250);
      later.ws.close();
    } finally {
      ctx.mailer = undefined;
    }
  });
});

describe("streamed replies (message.delta)", () => {
  it("sends the reply's pieces as they arrive, then the message as stored", async () => {
    fake.enqueue(streamedText(["To reset it, ", "choose Forgot password ", "on the sign-in page [1]."], { pauseAfter: 2 }));
    const client = await hello("w-llm");
    await client.next("ready");
    client.send({ type: "message", text: "How do I reset my password?", clientMessageId: "m1" });

    expect(await client.next("message.delta")).toEqual({ type: "message.delta", delta: "To reset it,", clientMessageId: "m1" });
    expect(await client.next("message.delta")).toEqual({ type: "message.delta", delta: " choose Forgot password", clientMessageId: "m1" });
    // The provider has paused: the visitor has a partial answer, and nothing is stored yet.
    expect(client.frames.some((frame) => frame.type === "message")).toBe(false);
    expect(await ctx.db.prisma.message.count({ where: { conversation: { agentId: "w-llm" }, text: { startsWith: "To reset it" } } })).toBe(
      0,
    );
    fake.release();

    const deltas = [await client.next("message.delta")];
    const message = await client.next("message");
    expect(deltas.map((frame) => frame.delta).join("")).toBe(" on the sign-in page.");
    expect(message).toMatchObject({
      role: "agent",
      text: "To reset it, choose Forgot password on the sign-in page.",
      clientMessageId: "m1",
      richContent: [{ type: "articles", articles: [{ id: "art-reset-password", title: "How to reset your password" }] }],
    });
    const stored = await ctx.db.prisma.message.findUniqueOrThrow({ where: { id: message.id } });
    expect(stored.text).toBe(message.text);
    // Every delta came before the message.
    const order = client.frames.map((frame) => frame.type).filter((type) => type === "message.delta" || type === "message");
    expect(order).toEqual(["message.delta", "message.delta", "message.delta", "message"]);
    client.ws.close();
  });

  it("ends a reply that fails mid-stream with an error frame, storing nothing", async () => {
    fake.enqueue(brokenStream(["Let me ", "check that "]));
    const client = await hello("w-llm");
    await client.next("ready");
    const before = await ctx.db.prisma.message.count({ where: { conversation: { agentId: "w-llm" } } });
    client.send({ type: "message", text: "Where is my invoice?", clientMessageId: "m2" });

    expect((await client.next("message.delta")).delta).toBe("Let me");
    expect(await client.next("error")).toEqual({ type: "error", error: "Internal error", clientMessageId: "m2" });
    expect(client.frames.some((frame) => frame.type === "message")).toBe(false);
    expect(await ctx.db.prisma.message.count({ where: { conversation: { agentId: "w-llm" } } })).toBe(before);
    client.ws.close();
  });
});

describe("page variables, tracking and live replies", () => {
  it("stores page variables on the conversation and gives them to the engine", async () => {
    fake.enqueue(textResponse("You are on the pro plan."), textResponse("Noted."));
    const before = fake.requests.length;
    const client = await hello("w-llm", { pageVariables: { plan: "pro" } });
    await client.next("ready");
    client.send({ type: "page_variables", variables: { page: "/pricing" } });
    client.send({ type: "message", text: "Which plan am I on?" });
    const created = await client.next("ready");
    expect((await client.next("message")).text).toBe("You are on the pro plan.");
    const system = JSON.stringify(fake.requests[before]?.body.messages[0]);
    expect(system).toContain("plan");
    expect(system).toContain("pro");
    expect(system).toContain("/pricing");

    const conversationId = created.conversationId as string;
    client.send({ type: "page_variables", variables: { page: "/checkout" } });
    client.send({ type: "message", text: "And now?" });
    await client.next("message");
    expect(JSON.stringify(fake.requests[before + 1]?.body.messages[0])).toContain("/checkout");
    const row = await ctx.db.prisma.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    expect(row.pageVariables).toEqual({ plan: "pro", page: "/checkout" });
    client.ws.close();
  });

  it("stores tracking events and attaches them to the conversation once it exists", async () => {
    const client = await hello("w-knowledge");
    await client.next("ready");
    client.send({ type: "track", event: "page_view", properties: { path: "/pricing" } });
    client.send({ type: "message", text: "How do I reset my password?" });
    const { conversationId } = await client.next("ready");
    await client.next("message");
    client.send({ type: "track", event: "clicked_article", properties: { id: "art-reset-password" } });
    client.send({ type: "track", event: "x".repeat(101) });
    expect((await client.next("error")).details).toBe("event: must be at most 100 characters");
    const events = await ctx.db.prisma.trackingEvent.findMany({ where: { conversationId }, orderBy: { createdAt: "asc" } });
    expect(events.map((event) => [event.event, event.properties])).toEqual([
      ["page_view", { path: "/pricing" }],
      ["clicked_article", { id: "art-reset-password" }],
    ]);
    // The panel's conversation timeline shows them.
    const detail = await getConversation(ctx.db, { workspaceId: "ws-demo", userId: "user-admin", role: "owner" }, conversationId as string);
    expect(detail.trackingEvents.map((event) => event.event)).toEqual(["page_view", "clicked_article"]);
    client.ws.close();
  });

  it("delivers the admin's reply and status changes live; an assignment alone tells the visitor nobody joined", async () => {
    const client = await hello("w-knowledge");
    await client.next("ready");
    client.send({ type: "message", text: "I want to talk to a person" });
    const started = await client.next("ready");
    const conversationId = started.conversationId as string;
    await client.next("message");
    // Nobody has joined: the visitor is told a person will reply (no answered handoffs to time yet).
    expect(started).toMatchObject({ status: "escalated", person: null, notice: "A person will reply here." });

    const admin = { workspaceId: "ws-demo", userId: "user-admin", role: "owner" as const };
    await changeConversation(ctx.db, admin, conversationId, { kind: "assign", assigneeId: "user-admin" }, new Date(), ctx.live);
    client.send({ type: "message", text: "Hello? Is anyone there?" });
    expect((await client.next("message")).text).toBe("Thanks, your message has been added to the conversation. A person will reply here.");

    // While the person types in the panel, the visitor sees who is typing.
    await signalTyping(ctx.db, admin, conversationId, ctx.live);
    // (The agent's typing frames of the turn above come first.)
    let typing = await client.next("typing");
    while (!("person" in typing)) typing = await client.next("typing");
    expect(typing).toEqual({ type: "typing", active: true, person: "Demo admin" });
    // Replying is joining: the person's name as the visitor sees it (the seeded admin is "Demo admin").
    await replyToConversation(ctx.db, admin, { id: conversationId, text: "Hi, this is Sam." }, new Date(), ctx.live);
    expect(await client.next("status")).toEqual({
      type: "status",
      status: "escalated",
      person: "Demo admin",
      notice: "Demo admin from our team has joined the conversation.",
    });
    const live = await client.next("message");
    expect(live).toMatchObject({ type: "message", role: "human", text: "Hi, this is Sam.", html: "<p>Hi, this is Sam.</p>\n" });
    // The assignment sent no status frame: the reply's is the only one since the handoff.
    expect(client.frames.filter((frame) => frame.type === "status")).toHaveLength(1);
    client.send({ type: "message", text: "Thanks!" });
    let reply = await client.next("message");
    while (reply.role !== "agent") reply = await client.next("message");
    expect(reply.text).toBe("Thanks, your message has been added to the conversation. Demo admin will reply here.");
    client.ws.close();
    await client.closed;

    // After a reload, the widget still knows who answers.
    const token = createResumeTokens(SECRET).sign({ agentId: "w-knowledge", conversationId }, new Date());
    const again = await hello("w-knowledge", { resumeToken: token });
    expect(await again.next("ready")).toMatchObject({
      conversationId,
      status: "escalated",
      person: "Demo admin",
      notice: "Demo admin from our team has joined the conversation.",
    });
    // Resolved reads `active` to the visitor; the agent answers the next message.
    await changeConversation(ctx.db, admin, conversationId, { kind: "resolve" }, new Date(), ctx.live);
    expect(await again.next("status")).toEqual({ type: "status", status: "active", person: null, notice: null });
    again.send({ type: "message", text: "How do I reset my password?" });
    expect((await again.next("message")).text).not.toMatch(/^Thanks, your message has been added/);
    again.ws.close();
  });

  it("refuses a page address that is not http(s)", async () => {
    const client = await hello("w-knowledge", { pageUrl: "javascript:alert(1)" });
    expect((await client.next("error")).details).toBe("pageUrl: must be an http or https URL");
    expect((await client.closed).code).toBe(4400);
  });
});

describe("browser-side tools", () => {
  const cartTool = {
    name: "get_cart",
    description: "The visitor's shopping cart",
    parameters: { type: "object", properties: { currency: { type: "string" } } },
  };

  it("sends tool_call to the page and gives its tool_result to the model", async () => {
    fake.enqueue(toolCallResponse("get_cart", { currency: "EUR" }), textResponse("You have 3 items."));
    const before = fake.requests.length;
    const client = await hello("w-llm", { tools: [cartTool] });
    await client.next("ready");
    client.send({ type: "message", text: "What's in my cart?" });
    const call = await client.next("tool_call");
    expect(call).toMatchObject({ name: "get_cart", args: { currency: "EUR" }, callId: expect.any(String) });
    client.send({ type: "tool_result", callId: call.callId, result: { items: 3 } });
    const reply = await client.next("message");
    // The engine's own retrieval for the message first, then the model's call of the page's tool.
    expect(reply).toMatchObject({
      text: "You have 3 items.",
      toolCalls: [
        { name: "search_knowledge_base", args: { query: "What's in my cart?" } },
        { name: "get_cart", args: { currency: "EUR" } },
      ],
    });
    const offered = fake.requests[before]?.body.tools.map((tool: { function: { name: string } }) => tool.function.name);
    expect(offered).toContain("get_cart");
    expect(JSON.stringify(fake.requests[before + 1]?.body.messages)).toContain('\\"items\\":3');
    client.ws.close();
  });

  it("gives the model an error result when the page does not answer in time", async () => {
    fake.enqueue(toolCallResponse("get_cart", {}), textResponse("I couldn't read your cart."));
    const before = fake.requests.length;
    const client = await hello("w-llm", { tools: [cartTool] });
    await client.next("ready");
    client.send({ type: "message", text: "What's in my cart?" });
    const call = await client.next("tool_call");
    expect((await client.next("message", TOOL_TIMEOUT_MS + 5_000)).text).toBe("I couldn't read your cart.");
    expect(JSON.stringify(fake.requests[before + 1]?.body.messages)).toContain("did not answer in time");
    // A late result is ignored.
    client.send({ type: "tool_result", callId: call.callId, result: { items: 1 } });
    client.send({ type: "tools", tools: [] });
    expect(client.ws.readyState).toBe(client.ws.OPEN);
    client.ws.close();
  });
});

describe("the browser SDK (@parley/web) against the endpoint", () => {
  const opened: WebSocket[] = [];
  /** `ws` with the page's Origin, as a browser would send it. */
  class PageWebSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { origin: ORIGIN });
      opened.push(this);
    }
  }
  function memoryStorage(): ResumeStorage & { items: Map<string, string> } {
    const items = new Map<string, string>();
    return {
      items,
      getItem: (key) => items.get(key) ?? null,
      setItem: (key, value) => void items.set(key, value),
      removeItem: (key) => void items.delete(key),
    };
  }
  function nextEvent<E extends keyof ParleyEvents>(
    chat: ReturnType<typeof connectSdk>,
    event: E,
    match: (payload: ParleyEvents[E]) => boolean = () => true,
  ) {
    return new Promise<ParleyEvents[E]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${event} event`)), 5_000);
      const off = chat.on(event, (payload) => {
        if (!match(payload)) return;
        clearTimeout(timer);
        off();
        resolve(payload);
      });
    });
  }

  it("sends, receives, reconnects with backoff and resumes the same conversation", async () => {
    const storage = memoryStorage();
    const base = url.replace(/^ws:/, "http:").replace(/\/ws$/, "");
    const chat = connectSdk({
      agentId: "w-knowledge",
      baseUrl: base,
      storage,
      WebSocket: PageWebSocket as unknown as WebSocketConstructor,
      reconnect: { initialDelayMs: 50 },
    });
    const typing = nextEvent(chat, "typing", (active) => active);
    const reply = nextEvent(chat, "message");
    const id = chat.send("How do I reset my password?"); // queued until ready
    await typing;
    const message: Message = await reply;
    expect(message).toMatchObject({ role: "agent", clientMessageId: id });
    expect(chat.conversationId).toEqual(expect.any(String));
    expect(storage.items.get("parley:w-knowledge:resume")).toEqual(expect.any(String));
    const conversationId = chat.conversationId;

    const reopened = nextEvent(chat, "ready");
    opened.at(-1)?.terminate(); // the network drops
    expect((await reopened).conversationId).toBe(conversationId);
    expect(chat.state).toBe("open");
    chat.close();

    // After a reload: a new connection with the stored token resumes too.
    const reloaded = connectSdk({
      agentId: "w-knowledge",
      baseUrl: base,
      storage,
      WebSocket: PageWebSocket as unknown as WebSocketConstructor,
    });
    const ready = await nextEvent(reloaded, "ready");
    expect(ready.conversationId).toBe(conversationId);
    expect(ready.messages).toHaveLength(2);
    reloaded.close();
  });

  it("the SDK gives the reply so far with each delta", async () => {
    fake.enqueue(streamedText(["One, ", "two, ", "three."]));
    const base = url.replace(/^ws:/, "http:").replace(/\/ws$/, "");
    const chat = connectSdk({
      agentId: "w-llm",
      baseUrl: base,
      storage: null,
      WebSocket: PageWebSocket as unknown as WebSocketConstructor,
    });
    const deltas: ParleyEvents["delta"][] = [];
    chat.on("delta", (delta) => deltas.push(delta));
    const reply = nextEvent(chat, "message");
    const id = chat.send("Count to three");

    expect((await reply).text).toBe("One, two, three.");
    expect(deltas.map((delta) => delta.text)).toEqual(["One,", "One, two,", "One, two, three."]);
    expect(deltas.every((delta) => delta.clientMessageId === id)).toBe(true);
    chat.close();
  });

  it("runs registered tools and stops for good on a fatal close", async () => {
    fake.enqueue(toolCallResponse("get_cart", {}), textResponse("Two items."));
    const base = url.replace(/^ws:/, "http:").replace(/\/ws$/, "");
    const chat = connectSdk({
      agentId: "w-llm",
      baseUrl: base,
      storage: null,
      WebSocket: PageWebSocket as unknown as WebSocketConstructor,
    });
    chat.registerTool({ name: "get_cart", description: "The cart", parameters: { type: "object", properties: {} } }, () => ({ items: 2 }));
    chat.setPageVariables({ page: "/cart" });
    const reply = nextEvent(chat, "message");
    chat.send("What's in my cart?");
    expect((await reply).text).toBe("Two items.");
    chat.close();

    const refused = connectSdk({
      agentId: "w-inactive",
      baseUrl: base,
      storage: null,
      WebSocket: PageWebSocket as unknown as WebSocketConstructor,
    });
    const closed = await nextEvent(refused, "connection", (change) => change.state === "closed");
    expect(closed).toEqual({ state: "closed", code: 4404, reason: "Agent not found" });
  });
});

describe("the widget's own limits", () => {
  /** The reply or the error frame that answers this clientMessageId. */
  async function answerTo(client: Client, clientMessageId: string): Promise<ServerFrame> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = client.frames.find(
        (frame) => (frame.type === "message" || frame.type === "error") && frame.clientMessageId === clientMessageId,
      );
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no answer to ${clientMessageId}; got ${JSON.stringify(client.frames)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  let counter = 0;
  /** An agent allowing ORIGIN with these widget settings (the rest default). */
  async function limitedAgent(fields: Record<string, unknown>): Promise<string> {
    counter += 1;
    const id = `w-limits-${counter}`;
    await createAgent(id, fields);
    return id;
  }

  async function ask(client: Client, clientMessageId: string, text = "How do refunds work?"): Promise<ServerFrame> {
    client.send({ type: "message", text, clientMessageId });
    return answerTo(client, clientMessageId);
  }

  /** Keeps a burst inside one minute, so the sliding window gives no weight to the previous one. */
  async function awayFromWindowEdge(): Promise<void> {
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 100));
  }

  const refusal = (details: string, clientMessageId: string) => ({
    type: "error",
    error: "Rate limit exceeded",
    details,
    retryAfter: expect.any(Number),
    clientMessageId,
  });

  it("widget turns do not spend the HTTP API's 30 a minute: the integrator's valid key still gets 200", async () => {
    const agent = await createAgentWithKey(ctx);
    await ctx.db.prisma.agent.update({
      where: { id: agent.id },
      data: { allowedOrigins: [ORIGIN], widgetMessagesPerConnectionPerMinute: 100, widgetMessagesPerIpPerMinute: 100 },
    });
    const client = await hello(agent.id);
    await client.next("ready");
    for (let i = 0; i < 32; i++) expect((await ask(client, `m${i}`, `Question ${i}: how do refunds work?`)).type).toBe("message");
    client.ws.close();
    const response = await messagesRoute(
      ctx,
      new Request(`http://localhost/api/agent/${agent.id}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${agent.key}`, "x-parley-client-ip": "192.0.2.1" },
        body: JSON.stringify({ message: "From the integrator's backend" }),
      }),
      { agentId: agent.id },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit")).toMatch(/^"messages";r=29;t=\d+$/);
  });

  it("limits messages per connection per minute; another connection from the same IP has its own", async () => {
    const agentId = await limitedAgent({ widgetMessagesPerConnectionPerMinute: 2 });
    await awayFromWindowEdge();
    const first = await hello(agentId);
    await first.next("ready");
    expect((await ask(first, "a1")).type).toBe("message");
    expect((await ask(first, "a2")).type).toBe("message");
    const refused = await ask(first, "a3");
    expect(refused).toEqual(refusal("Too many messages on this connection", "a3"));
    expect((refused as { retryAfter: number }).retryAfter).toBeGreaterThanOrEqual(1);
    expect((refused as { retryAfter: number }).retryAfter).toBeLessThanOrEqual(60);
    expect(first.ws.readyState).toBe(first.ws.OPEN);
    const second = await hello(agentId);
    await second.next("ready");
    expect((await ask(second, "b1")).type).toBe("message");
    first.ws.close();
    second.ws.close();
  });

  it("limits messages per IP per minute, over all of the IP's connections", async () => {
    const agentId = await limitedAgent({ widgetMessagesPerIpPerMinute: 3 });
    await awayFromWindowEdge();
    const first = await hello(agentId);
    const second = await hello(agentId);
    await Promise.all([first.next("ready"), second.next("ready")]);
    expect((await ask(first, "a1")).type).toBe("message");
    expect((await ask(second, "b1")).type).toBe("message");
    expect((await ask(first, "a2")).type).toBe("message");
    expect(await ask(second, "b2")).toEqual(refusal("Too many messages from this address", "b2"));
    // Another agent on the same page is counted apart.
    const other = await hello("w-other");
    await other.next("ready");
    expect((await ask(other, "o1")).type).toBe("message");
    for (const client of [first, second, other]) client.ws.close();
  });

  it("limits new conversations per IP per hour; continuing one is not a new one", async () => {
    const agentId = await limitedAgent({ widgetConversationsPerIpPerHour: 2 });
    const clients = await Promise.all([hello(agentId), hello(agentId), hello(agentId)]);
    await Promise.all(clients.map((client) => client.next("ready")));
    expect((await ask(clients[0] as Client, "a1")).type).toBe("message");
    expect((await ask(clients[1] as Client, "b1")).type).toBe("message");
    expect(await ask(clients[2] as Client, "c1")).toEqual(refusal("Too many new conversations from this address", "c1"));
    expect(await ctx.db.prisma.conversation.count({ where: { agentId } })).toBe(2);
    expect((await ask(clients[0] as Client, "a2")).type).toBe("message");
    for (const client of clients) client.ws.close();
  });

  it("refuses a connection over the IP's concurrent connections with close code 4429, and frees the slot on close", async () => {
    const agentId = await limitedAgent({ widgetConnectionsPerIp: 2 });
    const first = await hello(agentId);
    const second = await hello(agentId);
    await Promise.all([first.next("ready"), second.next("ready")]);
    const third = await hello(agentId);
    expect(await third.closed).toEqual({ code: 4429, reason: "Too many connections" });
    // Another agent is counted apart.
    const other = await hello("w-other");
    await other.next("ready");
    other.ws.close();

    first.ws.close();
    await first.closed;
    // The slot is released asynchronously after the close.
    let fourth: Client | undefined;
    for (let attempt = 0; attempt < 50 && !fourth; attempt++) {
      const candidate = await hello(agentId);
      const outcome = await Promise.race([candidate.next("ready").then(() => "ready"), candidate.closed.then(() => "closed")]);
      if (outcome === "ready") fourth = candidate;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(fourth).toBeDefined();
    second.ws.close();
    fourth?.ws.close();
  });

  it("keys the per-IP limits on the client behind a trusted proxy, not on what the page wrote", async () => {
    const agentId = await limitedAgent({ widgetConnectionsPerIp: 1 });
    const proxied = createWidgetSocketServer({ getContext: async () => ({ ...ctx, trustProxy: { hops: 1 } }), secret: () => SECRET });
    const server = createServer((_request, response) => response.writeHead(404).end());
    server.on("upgrade", (request, socket, head) => proxied.handleUpgrade(request, socket, head));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const proxiedUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
    const open = (forwardedFor: string) =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(proxiedUrl, ["parley.v1"], { origin: ORIGIN, headers: { "x-forwarded-for": forwardedFor } });
        ws.once("open", () => {
          ws.send(JSON.stringify({ type: "hello", agentId }));
          resolve(ws);
        });
        ws.once("error", reject);
      });
    const outcome = (ws: WebSocket) =>
      new Promise<string>((resolve) => {
        ws.once("message", () => resolve("ready"));
        ws.once("close", (code) => resolve(String(code)));
      });
    try {
      const a = await open("6.6.6.1, 203.0.113.1");
      expect(await outcome(a)).toBe("ready");
      // Another client behind the proxy.
      const b = await open("6.6.6.1, 203.0.113.2");
      expect(await outcome(b)).toBe("ready");
      // The first client again, with a new address of its own making on the left.
      const c = await open("6.6.6.2, 203.0.113.1");
      expect(await outcome(c)).toBe("4429");
      a.close();
      b.close();
    } finally {
      await proxied.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("caps the widget's share of the monthly conversations; the HTTP API keeps the rest", async () => {
    const agent = await createAgentWithKey(ctx, { monthlyConversationLimit: 3 });
    await ctx.db.prisma.agent.update({ where: { id: agent.id }, data: { allowedOrigins: [ORIGIN], widgetMonthlyConversationLimit: 1 } });
    const first = await hello(agent.id);
    await first.next("ready");
    expect((await ask(first, "a1")).type).toBe("message");
    const second = await hello(agent.id);
    await second.next("ready");
    expect(await ask(second, "b1")).toEqual({
      type: "error",
      error: "Monthly conversation quota exhausted",
      clientMessageId: "b1",
    });
    // The widget's existing conversation goes on.
    expect((await ask(first, "a2")).type).toBe("message");
    first.ws.close();
    second.ws.close();
    const apiTurn = (message: string) =>
      messagesRoute(
        ctx,
        new Request(`http://localhost/api/agent/${agent.id}/messages`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${agent.key}`, "x-parley-client-ip": "192.0.2.1" },
          body: JSON.stringify({ message }),
        }),
        { agentId: agent.id },
      );
    expect((await apiTurn("one")).status).toBe(200);
    expect((await apiTurn("two")).status).toBe(200);
    expect((await apiTurn("three")).status).toBe(402);
    expect(await ctx.db.prisma.usageMonth.findFirstOrThrow({ where: { agentId: agent.id } })).toMatchObject({
      conversations: 3,
      widgetConversations: 1,
    });
  });
});
