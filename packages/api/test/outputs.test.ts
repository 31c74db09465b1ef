// The declared wire contract of the panel's API (the output schemas beside each module's panel
// operations): every procedure declares what it returns, no declaration names a hash, a secret or
// a password (except the values shown once on purpose), results carry exactly the declared keys,
// and a field a core query returns by accident is dropped before it reaches the panel.

import { agentSummaryOutput, issuedAgentKeyOutput } from "@parley/core/agents";
import { conversationDetailOutput, conversationListOutput, listConversations } from "@parley/core/conversations";
import { articleDetailOutput, articleListOutput } from "@parley/core/knowledge";
import type { TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { appRouter } from "../src/root.ts";
import { callerFor, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let conversationId: string;

beforeAll(async () => {
  ({ ctx, a } = await setup());
  const conversation = await ctx.db.prisma.conversation.create({
    data: {
      agentId: a.agentId,
      status: "escalated",
      visitorName: "Ada",
      clientVariables: { plan: "pro" },
      messageCount: 2,
      messages: {
        create: [
          { role: "user", text: "Can I talk to a human?", sequence: 0 },
          {
            role: "agent",
            text: "Of course.",
            tokens: 12,
            sequence: 1,
            toolCalls: [{ name: "request_human", args: { reason: "The visitor asked for a person." } }],
          },
        ],
      },
      trackingEvents: { create: [{ agentId: a.agentId, event: "page_view", properties: { path: "/pricing" } }] },
    },
  });
  conversationId = conversation.id;
});

afterAll(async () => {
  await ctx?.close();
});

type Schema = z.core.$ZodType;

/** The output schema a procedure declared (tRPC keeps it on the procedure's definition). */
function declaredOutput(path: string): Schema | undefined {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { output?: Schema } }>;
  return procedures[path]?._def.output;
}

/** Every object key a schema declares, as paths ("items[].lastMessage.text"). */
function declaredKeys(schema: Schema, prefix = ""): string[] {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  switch (def.type) {
    case "object":
      return Object.entries(def.shape as Record<string, Schema>).flatMap(([key, value]) => [
        `${prefix}${key}`,
        ...declaredKeys(value, `${prefix}${key}.`),
      ]);
    case "array":
      return declaredKeys(def.element as Schema, `${prefix.replace(/\.$/, "")}[].`);
    case "nullable":
    case "optional":
      return declaredKeys(def.innerType as Schema, prefix);
    case "record":
      return declaredKeys(def.valueType as Schema, `${prefix}*.`);
    default:
      return [];
  }
}

/** The object keys a value holds, as the same paths (the keys of records are data, not fields). */
function actualKeys(schema: Schema, value: unknown, prefix = ""): string[] {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  if (value === null || value === undefined) return [];
  switch (def.type) {
    case "object": {
      const shape = def.shape as Record<string, Schema>;
      return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => [
        `${prefix}${key}`,
        ...(shape[key] ? actualKeys(shape[key], child, `${prefix}${key}.`) : []),
      ]);
    }
    case "array":
      return [
        ...new Set((value as unknown[]).flatMap((item) => actualKeys(def.element as Schema, item, `${prefix.replace(/\.$/, "")}[].`))),
      ];
    case "nullable":
    case "optional":
      return actualKeys(def.innerType as Schema, value, prefix);
    default:
      return [];
  }
}

function sorted(keys: string[]): string[] {
  return [...keys].sort();
}

describe("declared outputs", () => {
  const paths = Object.keys(appRouter._def.procedures);

  it("every procedure declares its output", () => {
    expect(paths.length).toBeGreaterThan(30);
    expect(paths.filter((path) => declaredOutput(path) === undefined)).toEqual([]);
  });

  it("no output declares a hash, a secret, a password or a key, except the values shown once", () => {
    const sensitive = paths.flatMap((path) =>
      declaredKeys(declaredOutput(path)!)
        .filter((key) => /hash|secret|password|^key$|token$/i.test(key.split(".").at(-1)!))
        // A time, not a secret: when the previous signing secret stops signing.
        .filter((key) => !key.endsWith("previousSecretValidUntil"))
        .map((key) => `${path}: ${key}`),
    );
    expect(sensitive).toEqual(["keys.generate: key", "webhooks.create: secret", "webhooks.rollSecret: secret"]);
  });
});

describe("results carry exactly the declared keys", () => {
  it("agents.list", async () => {
    const [agent] = await callerFor(ctx, a.scope).agents.list();
    expect(Object.keys(agent!).sort()).toEqual(Object.keys(agentSummaryOutput.shape).sort());
  });

  it("keys.generate: the key once, with its last 4 characters and time, nothing stored about it", async () => {
    const issued = await callerFor(ctx, a.scope).keys.generate({ agentId: a.agentId });
    expect(Object.keys(issued).sort()).toEqual(Object.keys(issuedAgentKeyOutput.shape).sort());
    expect(issued.key.endsWith(issued.last4)).toBe(true);
  });

  it("conversations.list and conversations.get", async () => {
    const caller = callerFor(ctx, a.scope);
    // Taken over: an assignee and a timeline entry, so their keys are checked too.
    await caller.conversations.takeOver({ id: conversationId });
    await caller.conversations.addNote({ id: conversationId, text: "Checked the invoice." });
    // A visitor's rating, so its keys are checked too.
    await ctx.db.prisma.conversationRating.create({ data: { conversationId, rating: "good", comment: "Thanks", updatedAt: new Date() } });
    const list = await caller.conversations.list();
    expect(list.items).toHaveLength(1);
    expect(list.items[0]!.lastMessage).not.toBeNull();
    expect(sorted(actualKeys(conversationListOutput, list))).toEqual(sorted(declaredKeys(conversationListOutput)));

    const detail = await caller.conversations.get({ id: conversationId });
    expect(detail.messages).toHaveLength(2);
    expect(detail.trackingEvents).toHaveLength(1);
    expect(detail.activity).toHaveLength(1);
    expect(detail.notes).toHaveLength(1);
    expect(sorted(actualKeys(conversationDetailOutput, detail))).toEqual(sorted(declaredKeys(conversationDetailOutput)));
  });

  it("articles.list and articles.get", async () => {
    const caller = callerFor(ctx, a.scope);
    const [summary] = await caller.articles.list();
    expect(Object.keys(summary!).sort()).toEqual(Object.keys(articleListOutput.element.shape).sort());
    const detail = await caller.articles.get({ id: a.articleId });
    expect(Object.keys(detail).sort()).toEqual(Object.keys(articleDetailOutput.shape).sort());
  });
});

describe("a field a core query returns by accident", () => {
  /** The same context over a client whose conversation and article reads add a stray column. */
  function leakyContext(): TestContext {
    const prisma = ctx.db.prisma.$extends({
      query: {
        conversation: {
          async findMany({ args, query }) {
            return (await query(args)).map((row) => ({ ...row, passwordHash: "leaked" }));
          },
        },
        article: {
          async findFirst({ args, query }) {
            const row = await query(args);
            return row && { ...row, secretNote: "leaked" };
          },
        },
      },
    });
    return { ...ctx, db: { ...ctx.db, prisma: prisma as unknown as typeof ctx.db.prisma } };
  }

  it("reaches core's result but not the panel", async () => {
    const leaky = leakyContext();
    const direct = await listConversations(leaky, a.scope, { limit: 10 });
    expect(direct.items[0]).toHaveProperty("passwordHash", "leaked");

    const caller = callerFor(leaky, a.scope);
    const list = await caller.conversations.list();
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).not.toHaveProperty("passwordHash");
    const article = await caller.articles.get({ id: a.articleId });
    expect(article.title).toBe("alpha article");
    expect(article).not.toHaveProperty("secretNote");
  });
});
