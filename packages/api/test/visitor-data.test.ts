// The panel's procedures for the visitor's data and deletions, through tRPC: inputs as the panel
// sends them, outputs through their schemas, refusals as the panel sees them.

import type { TestContext } from "@parley/testing/context";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let b: Workspace;

beforeAll(async () => {
  ({ ctx, a, b } = await setup());
});

afterAll(async () => {
  await ctx.close();
});

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string; details?: string }> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const { code, message, cause } = error as TRPCError;
  const details = (cause as { details?: string } | undefined)?.details;
  return details === undefined ? { code, message } : { code, message, details };
}

describe("visitorData.erase", () => {
  it("erases with the typed confirmation; the conversation then reads as erased; support is refused", async () => {
    const conversation = await ctx.db.prisma.conversation.create({
      data: {
        agentId: a.agentId,
        visitorName: "Ada",
        visitorEmail: "ada@example.com",
        messages: { create: { role: "user", text: "hi", sequence: 0 } },
      },
    });
    const owner = callerFor(ctx, a.scope);
    expect(await refusal(owner.visitorData.erase({ conversationId: conversation.id, confirmation: "yes" }))).toEqual({
      code: "BAD_REQUEST",
      message: "Invalid request",
      // The panel shows the details under the field.
      details: "Type ERASE or the visitor's email address to confirm",
    });
    expect(
      (
        await refusal(
          callerFor(ctx, { ...a.scope, role: "support" }).visitorData.erase({ email: "ada@example.com", confirmation: "ERASE" }),
        )
      ).code,
    ).toBe("FORBIDDEN");
    expect(
      (await refusal(callerFor(ctx, b.scope).visitorData.erase({ conversationId: conversation.id, confirmation: "ERASE" }))).code,
    ).toBe("NOT_FOUND");

    expect(await owner.visitorData.erase({ email: "ADA@example.com", confirmation: "ada@example.com" })).toEqual({ conversations: 1 });
    const read = await owner.conversations.get({ id: conversation.id });
    expect(read.erasedAt).toBeInstanceOf(Date);
    expect(read).toMatchObject({ visitorName: null, visitorEmail: null, messageCount: 0 });
    expect(read.messages.map((message) => message.text)).toEqual([""]);
  });
});

describe("deleting through the panel", () => {
  it("an editor deletes an article and a source; admins may not delete an agent, owners may", async () => {
    const editor = callerFor(ctx, { ...a.scope, role: "editor" });
    expect((await refusal(editor.articles.delete({ id: b.articleId }))).code).toBe("NOT_FOUND");
    expect(await editor.articles.delete({ id: a.articleId })).toEqual({ ok: true });
    expect((await refusal(editor.articles.get({ id: a.articleId }))).code).toBe("NOT_FOUND");
    expect(await editor.sources.delete({ id: a.sourceId })).toEqual({ articles: 0 });
    expect(await editor.sources.list()).toEqual([]);

    expect((await refusal(callerFor(ctx, { ...a.scope, role: "admin" }).agents.delete({ id: a.agentId }))).code).toBe("FORBIDDEN");
    expect((await refusal(callerFor(ctx, { ...a.scope, role: "editor" }).agents.delete({ id: a.agentId }))).code).toBe("FORBIDDEN");
    const owner = callerFor(ctx, a.scope);
    expect((await refusal(owner.agents.delete({ id: b.agentId }))).code).toBe("NOT_FOUND");
    expect(await owner.agents.delete({ id: a.agentId })).toEqual({ conversations: 1 });
    expect(await owner.agents.list()).toEqual([]);
    expect(await ctx.db.prisma.agent.count({ where: { id: b.agentId } })).toBe(1);
  });
});
