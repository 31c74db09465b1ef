// Every model round-trips every field through the Prisma client, on whichever database mode the
// run uses. Each test compares the row read back with exactly what was written, and checks the
// written object names every column, so a field added to the schema must be added here too; the
// last test checks every model of the schema was round-tripped (here or in roundtrip-webhooks.test.ts).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { AgentEngine, ConversationChannel, ConversationStatus, MessageRole, Prisma, Role } from "@parley/db";
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAllFields as expectWrittenFields } from "./support/fields.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

const t = (iso: string) => new Date(iso);
const MAX_INT = 2_147_483_647;

/** The models this file round-tripped with every field. */
const covered = new Set<Prisma.ModelName>();

function expectAllFields(model: Prisma.ModelName, written: object, read: object): void {
  covered.add(model);
  expectWrittenFields(model, written, read);
}

const workspace = { id: "ws-rt", name: "Round-trip Ünïcode workspace 🚀", createdAt: t("2026-01-02T03:04:05.006Z") };
const user = {
  id: "user-rt",
  workspaceId: "ws-rt",
  email: "rt@example.com",
  name: "Zoë O'Brien",
  passwordHash: "$2b$12$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234",
  role: Role.support,
  deactivatedAt: t("2026-01-03T03:04:05.008Z"),
  createdAt: t("2026-01-02T03:04:05.007Z"),
};
const agent = {
  id: "agent-rt",
  workspaceId: "ws-rt",
  name: "Round-trip agent",
  active: false,
  httpApiEnabled: true,
  keyHash: "a".repeat(64),
  keyLast4: "Xy_9",
  keyCreatedAt: t("2026-02-03T04:05:06.789Z"),
  monthlyConversationLimit: MAX_INT,
  monthlyTokenLimit: 0,
  usageLimit: 12,
  engine: AgentEngine.llm,
  instructions: "Line one\nLine \"two\" with 'quotes' and \\ backslash",
  answerBeyondArticles: true,
  knowledgeSynonyms: "log in, sign in\nkontoauszug, Rechnung «2» 🚀",
  branding: {
    helpName: "Aide «Acme» 🚀",
    accentColor: "#ffd500",
    footerLink: { label: "Retour", url: "https://acme.example.com/ä" },
    suggestions: [{ text: "Comment payer ?", articleId: null }],
  },
  allowedOrigins: ["http://localhost:3000", "https://shop.example.com", "https://xn--bcher-kva.example:8443"],
  widgetConnectionsPerIp: 1,
  widgetMessagesPerConnectionPerMinute: 600,
  widgetMessagesPerIpPerMinute: 10_000,
  widgetConversationsPerIpPerHour: 3,
  widgetMonthlyConversationLimit: 0,
  widgetMonthlyTokenLimit: MAX_INT,
  widgetSiteSeenAt: t("2026-02-01T12:34:56.789Z"),
  widgetSiteOrigin: "https://xn--bcher-kva.example:8443",
  voiceEnabled: true,
  voiceName: "kal16 «voix» 🎙",
  voiceLanguage: "en-GB",
  monthlyVoiceMinutesLimit: MAX_INT,
  voiceSessionsPerIp: 100,
  voiceMinutesPerSession: 1,
  retentionDays: 3650,
  createdAt: t("2026-02-01T00:00:00.001Z"),
  updatedAt: t("2026-02-02T00:00:00.002Z"),
};
const source = {
  id: "src-rt",
  workspaceId: "ws-rt",
  name: "Round-trip source",
  active: false,
  createdAt: t("2026-03-01T00:00:00.000Z"),
  updatedAt: t("2026-03-02T00:00:00.000Z"),
};

describe("every model round-trips every field", () => {
  it("Workspace, User, Agent, Source, AgentSource", async () => {
    await db.prisma.workspace.create({ data: workspace });
    expectAllFields("Workspace", workspace, await db.prisma.workspace.findUniqueOrThrow({ where: { id: workspace.id } }));

    await db.prisma.user.create({ data: user });
    expectAllFields("User", user, await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } }));

    await db.prisma.agent.create({ data: agent });
    expectAllFields("Agent", agent, await db.prisma.agent.findUniqueOrThrow({ where: { id: agent.id } }));

    await db.prisma.source.create({ data: source });
    expectAllFields("Source", source, await db.prisma.source.findUniqueOrThrow({ where: { id: source.id } }));

    const link = { agentId: agent.id, sourceId: source.id, createdAt: t("2026-03-03T10:11:12.131Z") };
    await db.prisma.agentSource.create({ data: link });
    expectAllFields(
      "AgentSource",
      link,
      await db.prisma.agentSource.findUniqueOrThrow({ where: { agentId_sourceId: { agentId: agent.id, sourceId: source.id } } }),
    );
  });

  it("Session, with and without its client, ended or not", async () => {
    const live = {
      id: "session-rt",
      userId: user.id,
      createdAt: t("2026-03-04T05:06:07.008Z"),
      lastSeenAt: t("2026-03-04T05:07:07.009Z"),
      expiresAt: t("2026-03-11T05:07:07.009Z"),
      revokedAt: null,
      ip: "2001:db8::7",
      userAgent: "Mozilla/5.0 (X11; Linux x86_64) Ünïcode ✓",
    };
    const ended = { ...live, id: "session-rt-ended", revokedAt: t("2026-03-05T00:00:00.000Z"), ip: null, userAgent: null };
    for (const session of [live, ended]) {
      await db.prisma.session.create({ data: session });
      expectAllFields("Session", session, await db.prisma.session.findUniqueOrThrow({ where: { id: session.id } }));
    }
  });

  it("Article, with Markdown content and both nullable states of publishedAt, translationOfId and detectedLanguage", async () => {
    const published = {
      id: "art-rt",
      sourceId: source.id,
      title: "Réinitialiser le mot de passe",
      slug: "reinitialiser-le-mot-de-passe",
      sourceUrl: "https://help.example.com/fr/articles/42-réinitialiser",
      content: "## Heading\n\n- item 1\n- item 2\n\n```bash\ncurl -H 'Authorization: Bearer x' https://api.example\n```\n",
      published: true,
      active: false,
      createdAt: t("2026-04-01T00:00:00.000Z"),
      updatedAt: t("2026-04-02T00:00:00.000Z"),
      publishedAt: t("2026-04-01T12:00:00.000Z"),
      publishAt: null,
      language: "fr",
      detectedLanguage: "fr",
      translationOfId: null,
      viewCount: MAX_INT,
    };
    const draft = {
      ...published,
      id: "art-rt-draft",
      slug: "draft-2",
      sourceUrl: null,
      published: false,
      active: true,
      publishedAt: null,
      publishAt: t("2026-05-01T08:00:00.000Z"),
      language: null,
      detectedLanguage: null,
      // A translation of the article above.
      translationOfId: "art-rt",
      viewCount: 0,
    };
    for (const article of [published, draft]) {
      await db.prisma.article.create({ data: article });
      expectAllFields("Article", article, await db.prisma.article.findUniqueOrThrow({ where: { id: article.id } }));
    }
  });

  it("Conversation and Message, with Json fields and every enum value", async () => {
    const conversations = Object.values(ConversationStatus).flatMap((status) =>
      Object.values(ConversationChannel).map((channel) => ({
        id: `conv-rt-${status}-${channel}`,
        agentId: agent.id,
        status,
        channel,
        visitorEmail: "visitor@example.com",
        visitorName: "Visitor Ñame",
        visitorPhone: "+33 6 12 34 56 78",
        clientVariables: { plan: "pro", "clé spéciale": "valeur ✓", empty: "" },
        pageVariables: { page: "/pricing?plan=pro&ref=ä", "title ✓": "Prix «annuels» 🚀", empty: "" },
        messageCount: 3,
        assigneeId: user.id,
        escalatedAt: t("2026-05-01T00:01:00.001Z"),
        waitingSince: status === "escalated" ? t("2026-05-01T00:02:00.004Z") : null,
        joinedById: status === "escalated" ? user.id : null,
        visitorPresentUntil: t("2026-05-01T00:03:00.005Z"),
        visitorMailDueAt: status === "escalated" ? t("2026-05-01T00:05:00.006Z") : null,
        visitorMailedAt: status === "resolved" ? t("2026-05-01T00:05:30.007Z") : null,
        resolvedAt: status === "resolved" ? t("2026-05-01T00:04:00.002Z") : null,
        firstPageUrl: "https://shop.example.com/pricing?plan=pro&ref=ä",
        // Unique per agent: each conversation's own.
        firstMessageKeyHash: createHash("sha256").update(`start-key:${status}-${channel}`).digest("hex"),
        erasedAt: t("2026-05-01T00:06:00.003Z"),
        test: channel === "api",
        createdAt: t("2026-05-01T00:00:00.000Z"),
        updatedAt: t("2026-05-01T00:05:00.000Z"),
      })),
    );
    expect(conversations).toHaveLength(6);
    for (const conversation of conversations) {
      await db.prisma.conversation.create({ data: conversation });
      expectAllFields("Conversation", conversation, await db.prisma.conversation.findUniqueOrThrow({ where: { id: conversation.id } }));
    }
    const anonymous = {
      ...conversations[0]!,
      id: "conv-rt-anon",
      visitorEmail: null,
      visitorName: null,
      visitorPhone: null,
      clientVariables: {},
      pageVariables: {},
      assigneeId: null,
      escalatedAt: null,
      waitingSince: null,
      joinedById: null,
      visitorPresentUntil: null,
      visitorMailDueAt: null,
      visitorMailedAt: null,
      resolvedAt: null,
      firstPageUrl: null,
      firstMessageKeyHash: null,
      erasedAt: null,
    };
    await db.prisma.conversation.create({ data: anonymous });
    expectAllFields("Conversation", anonymous, await db.prisma.conversation.findUniqueOrThrow({ where: { id: anonymous.id } }));

    const messages = Object.values(MessageRole).map((role, sequence) => ({
      id: `msg-rt-${role}`,
      conversationId: conversations[0]!.id,
      role,
      text: `Message from ${role}: multi\nline, emoji 🎉, quotes "x" 'y'`,
      tokens: MAX_INT - sequence,
      toolCalls: [
        { name: "search_knowledge_base", args: { query: "reset password", limit: 3, nested: [1, 2.5, true, null, { deep: "yes" }] } },
      ],
      richContent: [{ type: "buttons", buttons: [{ label: "Talk to a person", action: "handoff" }] }],
      sequence,
      voice: sequence !== 1,
      interrupted: sequence === 2,
      // The widget's id of a visitor message; null on the others.
      clientMessageId: role === "user" ? "3f1c2b9e-0d4a-4c6e-9b1f-2a7d5e8c4b10" : null,
      createdAt: t(`2026-05-01T00:0${sequence}:00.000Z`),
    }));
    expect(messages).toHaveLength(3);
    for (const message of messages) {
      await db.prisma.message.create({ data: message });
      expectAllFields("Message", message, await db.prisma.message.findUniqueOrThrow({ where: { id: message.id } }));
    }

    const activities = [
      { kind: "taken_over", actorId: user.id, assigneeId: null },
      { kind: "assigned", actorId: user.id, assigneeId: user.id },
      { kind: "escalated", actorId: null, assigneeId: null },
    ].map((activity, i) => ({
      id: `act-rt-${i}`,
      conversationId: conversations[0]!.id,
      ...activity,
      createdAt: t(`2026-05-01T00:0${i}:30.00${i}Z`),
    }));
    for (const activity of activities) {
      await db.prisma.conversationActivity.create({ data: activity });
      expectAllFields(
        "ConversationActivity",
        activity,
        await db.prisma.conversationActivity.findUniqueOrThrow({ where: { id: activity.id } }),
      );
    }
  });

  it("TrackingEvent, with and without a conversation, with Json properties", async () => {
    await db.prisma.conversation.create({ data: { id: "conv-rt-tracking", agentId: agent.id } });
    const linked = {
      id: "track-rt",
      agentId: agent.id,
      conversationId: "conv-rt-tracking",
      event: "checkout.started ✓",
      properties: { plan: "pro", amount: 49.9, items: [1, "two", false, null, { deep: "yes" }], note: "multi\nline 🎉" },
      createdAt: t("2026-05-02T08:09:10.111Z"),
    };
    const anonymous = { ...linked, id: "track-rt-anon", conversationId: null, event: "page_view", properties: {} };
    for (const event of [linked, anonymous]) {
      await db.prisma.trackingEvent.create({ data: event });
      expectAllFields("TrackingEvent", event, await db.prisma.trackingEvent.findUniqueOrThrow({ where: { id: event.id } }));
    }
  });

  it("Agent with each engine value", async () => {
    for (const engine of Object.values(AgentEngine)) {
      const row = { ...agent, id: `agent-rt-${engine}`, engine, allowedOrigins: [] };
      await db.prisma.agent.create({ data: row });
      expectAllFields("Agent", row, await db.prisma.agent.findUniqueOrThrow({ where: { id: row.id } }));
    }
  });

  it("UsageMonth and IdempotencyRecord", async () => {
    const usage = {
      agentId: agent.id,
      month: "2026-11",
      conversations: 2,
      tokens: MAX_INT,
      turns: 7,
      widgetConversations: 1,
      widgetTokens: MAX_INT,
      voiceSeconds: MAX_INT,
      updatedAt: t("2026-11-21T23:59:59.999Z"),
    };
    await db.prisma.usageMonth.create({ data: usage });
    expectAllFields(
      "UsageMonth",
      usage,
      await db.prisma.usageMonth.findUniqueOrThrow({ where: { agentId_month: { agentId: agent.id, month: "2026-11" } } }),
    );

    const record = {
      agentId: agent.id,
      key: "idem-key-✓-123",
      requestHash: "b".repeat(64),
      status: 402,
      body: { error: "Quota exceeded", details: "2 of 2 conversations used", nested: { list: [1, "two", false, null] } },
      createdAt: t("2026-11-21T10:00:00.000Z"),
    };
    await db.prisma.idempotencyRecord.create({ data: record });
    expectAllFields(
      "IdempotencyRecord",
      record,
      await db.prisma.idempotencyRecord.findUniqueOrThrow({ where: { agentId_key: { agentId: agent.id, key: record.key } } }),
    );
  });

  it("fills the schema's defaults when optional fields are omitted", async () => {
    const agentRow = await db.prisma.agent.create({ data: { id: "agent-defaults", workspaceId: workspace.id, name: "Defaults" } });
    expect(agentRow).toMatchObject({
      active: true,
      httpApiEnabled: false,
      keyHash: null,
      keyLast4: null,
      keyCreatedAt: null,
      monthlyConversationLimit: null,
      monthlyTokenLimit: null,
      usageLimit: null,
      engine: AgentEngine.knowledge,
      instructions: "",
      answerBeyondArticles: false,
      knowledgeSynonyms: "",
      branding: {},
      allowedOrigins: [],
      widgetConnectionsPerIp: null,
      widgetMessagesPerConnectionPerMinute: null,
      widgetMessagesPerIpPerMinute: null,
      widgetConversationsPerIpPerHour: null,
      widgetMonthlyConversationLimit: null,
      widgetMonthlyTokenLimit: null,
      voiceEnabled: false,
      voiceName: null,
      voiceLanguage: "en",
      monthlyVoiceMinutesLimit: null,
      voiceSessionsPerIp: null,
      voiceMinutesPerSession: null,
      retentionDays: null,
    });
    const conversation = await db.prisma.conversation.create({ data: { id: "conv-defaults", agentId: agentRow.id } });
    expect(conversation).toMatchObject({
      status: "active",
      channel: "api",
      clientVariables: {},
      pageVariables: {},
      messageCount: 0,
      test: false,
    });
    const message = await db.prisma.message.create({ data: { conversationId: conversation.id, role: "user", text: "hi", sequence: 0 } });
    expect(message).toMatchObject({ tokens: 0, toolCalls: [], richContent: [], voice: false, interrupted: false });
    expect(message.id).toMatch(/^c[a-z0-9]{20,}$/);
    const usage = await db.prisma.usageMonth.create({ data: { agentId: agentRow.id, month: "2026-12" } });
    expect(usage).toMatchObject({ conversations: 0, tokens: 0, turns: 0, widgetConversations: 0, widgetTokens: 0, voiceSeconds: 0 });
    const tracking = await db.prisma.trackingEvent.create({ data: { agentId: agentRow.id, event: "opened" } });
    expect(tracking).toMatchObject({ conversationId: null, properties: {} });
    expect(tracking.id).toMatch(/^c[a-z0-9]{20,}$/);
    expect(tracking.createdAt).toBeInstanceOf(Date);
  });

  it("covers every model of the schema (a new model must be round-tripped here or in another roundtrip-*.test.ts)", () => {
    const models = Object.values(Prisma.ModelName);
    expect(models.length).toBeGreaterThan(0);
    // Some models are round-tripped in their own files: check those files really do.
    const folder = new URL(".", import.meta.url);
    const otherFiles = readdirSync(folder)
      .filter((name) => /^roundtrip-.+\.test\.ts$/.test(name))
      .map((name) => readFileSync(new URL(name, folder), "utf8"));
    const elsewhere = models.filter((model) => otherFiles.some((text) => new RegExp(`expectAllFields\\(\\s*"${model}",`).test(text)));
    expect(elsewhere.length).toBeGreaterThan(0);
    const missing = models.filter((model) => !covered.has(model) && !elsewhere.includes(model));
    expect(missing).toEqual([]);
  });
});
