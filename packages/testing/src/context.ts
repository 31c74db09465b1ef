// A complete AppContext over a throwaway, migrated database for integration tests
// (in-memory PGlite, or a fresh database on DATABASE_URL's server; a real Redis with REDIS_URL).
import { randomBytes } from "node:crypto";
import type { AppContext, TrustProxy } from "@parley/core";
import type { MessagingAgent } from "@parley/core/agents";
import { createEngineSelector, type LlmConfig } from "@parley/core/engine";
import type { SemanticSearch } from "@parley/core/knowledge";
import { createRateLimiters } from "@parley/core/ratelimit";
import { createTestDatabase, type TestDatabase } from "./database.ts";

export interface TestContext extends AppContext {
  db: TestDatabase;
  close(): Promise<void>;
}

export async function createTestContext(
  options: {
    llm?: LlmConfig;
    appUrl?: string;
    trustProxy?: TrustProxy;
    now?: () => Date;
    webhooks?: AppContext["webhooks"];
    /** Semantic retrieval for the engines (built over `db`, so handed as a function of it). */
    semantic?: (db: TestDatabase) => SemanticSearch;
  } = {},
): Promise<TestContext> {
  const db = await createTestDatabase();
  const appUrl = options.appUrl ?? "http://localhost:3000";
  // A unique key prefix keeps concurrent test files apart on a shared Redis.
  const limiters = createRateLimiters({ redisUrl: process.env.REDIS_URL || undefined, prefix: `test:${randomBytes(6).toString("hex")}` });
  return {
    db,
    limiters,
    engineFor: createEngineSelector({ db, appUrl, llm: options.llm, semantic: options.semantic?.(db) }),
    appUrl,
    trustProxy: options.trustProxy ?? false,
    now: options.now ?? (() => new Date()),
    webhooks: options.webhooks,
    close: async () => {
      await limiters.close();
      await db.close();
    },
  };
}

/**
 * An agent as runTurn takes it: the knowledge engine, no quotas and no instructions unless
 * `overrides` says otherwise.
 */
export function messagingAgent(overrides: Partial<MessagingAgent> & Pick<MessagingAgent, "id" | "workspaceId">): MessagingAgent {
  return {
    name: "Test agent",
    engine: "knowledge",
    instructions: "",
    answerBeyondArticles: false,
    monthlyConversationLimit: null,
    monthlyTokenLimit: null,
    usageLimit: null,
    widgetMonthlyConversationLimit: null,
    widgetMonthlyTokenLimit: null,
    ...overrides,
  };
}
