// Deleting an article, a source or an agent on a real database: the help centre answers 404 at
// once, the knowledge index stops showing the articles, their vectors go (and are recorded for the
// instances' in-process indexes), and another workspace's rows are not found.

import type { TestContext } from "@parley/testing/context";
import { createAgentWithKey, createMessagingContext, messageInput, type TestAgent } from "@parley/testing/messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteAgent } from "../src/conversations/agent-deletion.ts";
import { sendMessage } from "../src/conversations/turn/send-message.ts";
import { helpArticle, helpCollections } from "../src/help/api.ts";
import { deleteArticle, deleteSource } from "../src/knowledge/deletion.ts";
import { agentIndex } from "../src/knowledge/search/agent-index.ts";
import type { AdminScope } from "../src/people/scope.ts";
import { AppError } from "../src/platform/errors.ts";

const owner: AdminScope = { workspaceId: "ws-demo", userId: "user-admin", role: "owner" };
const stranger: AdminScope = { workspaceId: "ws-other", userId: "user-other", role: "owner" };
const NOW = new Date("2026-11-28T09:00:00.000Z");

let ctx: TestContext;
let agent: TestAgent;

beforeAll(async () => {
  ctx = await createMessagingContext();
  agent = await createAgentWithKey(ctx);
  await ctx.db.prisma.workspace.create({ data: { id: "ws-other", name: "Other" } });
});

afterAll(async () => {
  await ctx.close();
});

async function helpStatus(agentId: string, itemId: string): Promise<number> {
  return (await helpArticle(ctx, { agentId, itemId, clientIp: "203.0.113.9" })).status;
}

async function indexed(agentId: string): Promise<string[]> {
  const index = await agentIndex(ctx.db, agentId);
  if ("overBudget" in index) throw new Error("the test agent's articles fit the index budget");
  return [...index.articles.keys()].sort();
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).code;
}

async function addVectors(articleId: string, sourceId: string) {
  await ctx.db.prisma.articleEmbedding.create({ data: { articleId, model: "test-model", embeddedVersion: new Date() } });
  await ctx.db.prisma.passageEmbedding.create({
    data: { articleId, model: "test-model", section: 0, sourceId, textHash: "h", vector: new Uint8Array(8) },
  });
}

describe("deleting an article", () => {
  it("its help page answers 404 and the knowledge index drops it at once; its vectors go, recorded for every instance", async () => {
    expect(await helpStatus(agent.id, "art-api-keys")).toBe(200);
    expect(await indexed(agent.id)).toContain("art-api-keys");
    await addVectors("art-api-keys", "src-start");

    expect(await refusal(deleteArticle(ctx.db, stranger, "art-api-keys", NOW))).toBe("ARTICLE_NOT_FOUND");
    expect(await helpStatus(agent.id, "art-api-keys")).toBe(200);

    expect(await deleteArticle(ctx.db, owner, "art-api-keys", NOW)).toEqual({ ok: true });
    expect(
      await ctx.db.prisma.auditEvent.findMany({ where: { action: "article.deleted" }, select: { targetId: true, actorUserId: true } }),
    ).toEqual([{ targetId: "art-api-keys", actorUserId: owner.userId }]);

    const answer = await helpArticle(ctx, { agentId: agent.id, itemId: "art-api-keys", clientIp: "203.0.113.9" });
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ error: "Not found" });
    expect(await indexed(agent.id)).not.toContain("art-api-keys");
    expect(await ctx.db.prisma.passageEmbedding.count({ where: { articleId: "art-api-keys" } })).toBe(0);
    expect(await ctx.db.prisma.articleEmbedding.count({ where: { articleId: "art-api-keys" } })).toBe(0);
    expect(await ctx.db.prisma.passageEmbeddingDeletion.count({ where: { articleId: "art-api-keys" } })).toBe(1);
    expect(await refusal(deleteArticle(ctx.db, owner, "art-api-keys", NOW))).toBe("ARTICLE_NOT_FOUND");
  });
});

describe("deleting a source", () => {
  it("takes its articles (help 404, out of the index, vectors gone); linked agents keep going without it", async () => {
    const articles = (await ctx.db.prisma.article.findMany({ where: { sourceId: "src-billing" }, select: { id: true } })).map(
      (row) => row.id,
    );
    expect(articles.length).toBeGreaterThan(1);
    await addVectors("art-refunds", "src-billing");
    expect(await helpStatus(agent.id, "art-refunds")).toBe(200);

    expect(await refusal(deleteSource(ctx.db, stranger, "src-billing", NOW))).toBe("SOURCE_NOT_FOUND");
    expect(await deleteSource(ctx.db, owner, "src-billing", NOW)).toEqual({ articles: articles.length });

    for (const id of articles) expect(await helpStatus(agent.id, id)).toBe(404);
    const left = await indexed(agent.id);
    expect(left.filter((id) => articles.includes(id))).toEqual([]);
    expect(left).toContain("art-welcome");
    expect(await ctx.db.prisma.article.count({ where: { id: { in: articles } } })).toBe(0);
    expect(await ctx.db.prisma.passageEmbedding.count({ where: { sourceId: "src-billing" } })).toBe(0);
    expect(await ctx.db.prisma.agentSource.count({ where: { sourceId: "src-billing" } })).toBe(0);
    expect(await ctx.db.prisma.agent.count({ where: { id: agent.id } })).toBe(1);
  });
});

describe("deleting an agent", () => {
  it("takes its conversations, messages, usage and key; its help centre answers 404; stored webhook events lose their data", async () => {
    const doomed = await createAgentWithKey(ctx, { sources: ["src-start"] });
    const sent = await sendMessage(ctx, messageInput(doomed, { message: "delete-marker hello", visitor: { name: "Doomed Visitor" } }));
    expect(sent.status).toBe(200);
    const conversationId = (sent.json as { conversationId: string }).conversationId;
    await ctx.db.prisma.webhookEvent.create({
      data: {
        id: "evt_doomed",
        workspaceId: "ws-demo",
        type: "conversation.created",
        payload: JSON.stringify({
          type: "conversation.created",
          timestamp: NOW.toISOString(),
          data: { conversation: { id: conversationId, visitor: "Doomed Visitor" } },
        }),
      },
    });
    expect((await helpCollections(ctx, { agentId: doomed.id, clientIp: "203.0.113.9" })).status).toBe(200);

    expect(await refusal(deleteAgent(ctx.db, stranger, doomed.id))).toBe("AGENT_NOT_FOUND");
    expect(await deleteAgent(ctx.db, owner, doomed.id)).toEqual({ conversations: 1 });

    expect(await ctx.db.prisma.agent.count({ where: { id: doomed.id } })).toBe(0);
    expect(await ctx.db.prisma.conversation.count({ where: { id: conversationId } })).toBe(0);
    expect(await ctx.db.prisma.message.count({ where: { conversationId } })).toBe(0);
    expect(await ctx.db.prisma.usageMonth.count({ where: { agentId: doomed.id } })).toBe(0);
    expect((await helpCollections(ctx, { agentId: doomed.id, clientIp: "203.0.113.9" })).status).toBe(404);
    const event = await ctx.db.prisma.webhookEvent.findUniqueOrThrow({ where: { id: "evt_doomed" } });
    expect(JSON.parse(event.payload)).toEqual({
      type: "conversation.created",
      timestamp: NOW.toISOString(),
      data: { conversation_id: conversationId, erased: true },
    });
    // Another agent of the workspace is untouched.
    expect(await ctx.db.prisma.agent.count({ where: { id: agent.id } })).toBe(1);
  });
});
