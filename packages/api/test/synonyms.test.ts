// An agent's own synonyms for the knowledge search: an admin stores them through agents.update
// (validated and tidied), the agent's very next turn uses them, and only that workspace's admins
// can read or change them.
import type { MessagingAgent } from "@parley/core/agents";
import { runTurn } from "@parley/core/conversations";
import { messagingAgent, type TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let b: Workspace;

beforeAll(async () => {
  ({ ctx, a, b } = await setup());
  await ctx.db.prisma.article.create({
    data: {
      id: "alpha-wall-tablet",
      sourceId: a.sourceId,
      title: "Setting up the wall tablet",
      content:
        "Mount the wall tablet by the staff entrance.\n\n## Power\n\nKeep the wall tablet plugged in so staff can start their shifts.",
      published: true,
    },
  });
});

afterAll(async () => {
  await ctx?.close();
});

function agentOf(workspace: Workspace): MessagingAgent {
  return messagingAgent({ id: workspace.agentId, workspaceId: workspace.scope.workspaceId, name: "agent" });
}

async function ask(workspace: Workspace, message: string) {
  const response = await runTurn(ctx, agentOf(workspace), { message }, { channel: "api" });
  const articles = response.richContent.find((item) => item.type === "articles");
  return { reply: response.reply, cited: articles?.type === "articles" ? articles.articles.map((article) => article.id) : [] };
}

describe("an agent's synonyms", () => {
  it("are stored tidied, and the next turn finds the article by the admin's word", async () => {
    const before = await ask(a, "where does the timeclock go?");
    expect(before.cited).toEqual([]);
    expect(before.reply).toContain("I don't know");

    const updated = await callerFor(ctx, a.scope).agents.update({
      id: a.agentId,
      knowledgeSynonyms: "  timeclock ,  wall   tablet\n\nclock in, start a shift  ",
    });
    expect(updated.knowledgeSynonyms).toBe("timeclock, wall tablet\nclock in, start a shift");
    expect((await ctx.db.prisma.agent.findUniqueOrThrow({ where: { id: a.agentId } })).knowledgeSynonyms).toBe(
      "timeclock, wall tablet\nclock in, start a shift",
    );

    const after = await ask(a, "where does the timeclock go?");
    expect(after.cited[0]).toBe("alpha-wall-tablet");
    expect(after.reply).toContain("Mount the wall tablet by the staff entrance.");

    // Taking the group away takes the answer away on the next turn too.
    await callerFor(ctx, a.scope).agents.update({ id: a.agentId, knowledgeSynonyms: "" });
    expect((await ask(a, "where does the timeclock go?")).cited).toEqual([]);
  });

  it("refuses a line with a single phrase, naming the line, and stores nothing", async () => {
    await callerFor(ctx, a.scope).agents.update({ id: a.agentId, knowledgeSynonyms: "timeclock, wall tablet" });
    await expect(
      callerFor(ctx, a.scope).agents.update({ id: a.agentId, knowledgeSynonyms: "log in, sign in\njust one phrase" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("Line 2: give at least two phrases separated by commas"),
    });
    await expect(callerFor(ctx, a.scope).agents.update({ id: a.agentId, knowledgeSynonyms: "a, b\n".repeat(5_000) })).rejects.toMatchObject(
      {
        code: "BAD_REQUEST",
      },
    );
    expect((await callerFor(ctx, a.scope).agents.get({ id: a.agentId })).knowledgeSynonyms).toBe("timeclock, wall tablet");
  });

  it("are read and changed only by the agent's workspace admins", async () => {
    await callerFor(ctx, a.scope).agents.update({ id: a.agentId, knowledgeSynonyms: "timeclock, wall tablet" });
    const other = callerFor(ctx, b.scope);
    await expect(other.agents.get({ id: a.agentId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(other.agents.update({ id: a.agentId, knowledgeSynonyms: "" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(callerFor(ctx, null).agents.get({ id: a.agentId })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect((await ctx.db.prisma.agent.findUniqueOrThrow({ where: { id: a.agentId } })).knowledgeSynonyms).toBe("timeclock, wall tablet");
    // Another workspace's agent keeps its own (none): the word means nothing there.
    expect((await callerFor(ctx, b.scope).agents.get({ id: b.agentId })).knowledgeSynonyms).toBe("");
  });
});
