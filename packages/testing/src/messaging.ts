// Fixtures for the messages API tests (core and web): a test context over the seeded demo data,
// agents with keys, and a request builder for core's sendMessage.

import { generateAgentKey } from "@parley/core/agents";
import type { SendMessageInput } from "@parley/core/conversations";
import { seed } from "@parley/core/demo";
import { createTestContext, type TestContext } from "./context.ts";

export async function createMessagingContext(options: Parameters<typeof createTestContext>[0] = {}): Promise<TestContext> {
  const ctx = await createTestContext(options);
  await seed(ctx.db, { adminEmail: "admin@example.com", adminPassword: "test-password-1" });
  return ctx;
}

let agentCounter = 0;

export interface TestAgent {
  id: string;
  key: string;
}

/** A new agent of the demo workspace with the HTTP API on and a key; linked to the demo sources. */
export async function createAgentWithKey(
  ctx: TestContext,
  fields: {
    monthlyConversationLimit?: number | null;
    monthlyTokenLimit?: number | null;
    usageLimit?: number | null;
    sources?: string[];
  } = {},
): Promise<TestAgent> {
  agentCounter += 1;
  const id = `test-agent-${process.pid}-${agentCounter}`;
  await ctx.db.prisma.agent.create({
    data: {
      id,
      workspaceId: "ws-demo",
      name: `Test agent ${agentCounter}`,
      httpApiEnabled: true,
      monthlyConversationLimit: fields.monthlyConversationLimit ?? null,
      monthlyTokenLimit: fields.monthlyTokenLimit ?? null,
      usageLimit: fields.usageLimit ?? null,
      sources: { create: (fields.sources ?? ["src-start", "src-billing"]).map((sourceId) => ({ sourceId })) },
    },
  });
  const { key } = await generateAgentKey(ctx.db, id);
  return { id, key };
}

/** Input for core's sendMessage: a JSON body and the usual headers, overridable. */
export function messageInput(
  agent: { id: string; key?: string },
  body: unknown,
  overrides: Partial<SendMessageInput> & { rawBody?: string } = {},
): SendMessageInput {
  const { rawBody, ...rest } = overrides;
  const text = rawBody ?? JSON.stringify(body);
  return {
    agentId: agent.id,
    token: agent.key ?? null,
    idempotencyKey: null,
    // As the transport reads a valid JSON body (its own rules are tested with it).
    readBody: async () => JSON.parse(text),
    clientIp: "203.0.113.7",
    ...rest,
  };
}
