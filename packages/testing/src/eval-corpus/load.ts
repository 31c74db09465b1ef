// Loads the corpus into a database: one workspace, one source per collection, every article
// published, and one agent per engine linked to every source. Fixed ids and timestamps, so two
// runs build the same data.

import type { MessagingAgent } from "@parley/core/agents";
import type { Database } from "@parley/db";
import type { Article, Collection } from "./corpus.ts";

export type EngineName = "knowledge" | "llm";

const WORKSPACE_ID = "ws-eval";
const CREATED_AT = new Date("2026-01-05T09:00:00.000Z");

export function evalAgent(engine: EngineName): MessagingAgent {
  return {
    id: `eval-${engine}`,
    workspaceId: WORKSPACE_ID,
    name: "Help assistant (evaluation)",
    engine,
    instructions: "",
    // The LLM engine is measured as agents run by default: answering only from the passages.
    answerBeyondArticles: false,
    monthlyConversationLimit: null,
    monthlyTokenLimit: null,
    usageLimit: null,
    widgetMonthlyConversationLimit: null,
    widgetMonthlyTokenLimit: null,
  };
}

export async function loadCorpus(db: Database, collections: Collection[], articles: Article[]): Promise<void> {
  const prisma = db.prisma;
  await prisma.workspace.create({ data: { id: WORKSPACE_ID, name: "Evaluation", createdAt: CREATED_AT } });
  await prisma.source.createMany({
    data: collections.map((collection) => ({
      id: collection.id,
      workspaceId: WORKSPACE_ID,
      name: collection.name,
      createdAt: CREATED_AT,
      updatedAt: CREATED_AT,
    })),
  });
  // Each article's language as an admin would set it (the engine detects it only when it is empty).
  await prisma.article.createMany({
    data: articles.map((article, index) => {
      // Distinct update times keep "most recent first" orders total and runs reproducible.
      const updatedAt = new Date(CREATED_AT.getTime() + (index + 1) * 60_000);
      return {
        id: article.id,
        sourceId: article.collection,
        title: article.title,
        content: article.content,
        language: article.language,
        published: true,
        active: true,
        createdAt: CREATED_AT,
        updatedAt,
        publishedAt: updatedAt,
      };
    }),
  });
  for (const engine of ["knowledge", "llm"] as const) {
    const agent = evalAgent(engine);
    await prisma.agent.create({
      data: { id: agent.id, workspaceId: WORKSPACE_ID, name: agent.name, engine, httpApiEnabled: true, createdAt: CREATED_AT },
    });
    await prisma.agentSource.createMany({
      data: collections.map((collection) => ({ agentId: agent.id, sourceId: collection.id, createdAt: CREATED_AT })),
    });
  }
}
