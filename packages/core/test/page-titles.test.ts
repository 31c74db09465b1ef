// Browser tab titles of the panel's item pages: the item's name and section, read only in the
// person's own workspace and only for a section their role may open.
import type { TestContext } from "@parley/testing/context";
import { createMessagingContext } from "@parley/testing/messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { panelItemTitle } from "../src/people/page-titles.ts";

let ctx: TestContext;
const owner = { workspaceId: "ws-demo", role: "owner" as const };

beforeAll(async () => {
  ctx = await createMessagingContext();
  await ctx.db.prisma.workspace.create({ data: { id: "ws-titles-other", name: "Other" } });
  await ctx.db.prisma.agent.create({ data: { id: "titles-support-bot", workspaceId: "ws-demo", name: "Support bot" } });
  await ctx.db.prisma.agent.create({ data: { id: "titles-elsewhere", workspaceId: "ws-titles-other", name: "Not yours" } });
  await ctx.db.prisma.article.create({
    data: { id: "titles-article", sourceId: "src-start", title: "Reset password article", content: "Body" },
  });
  await ctx.db.prisma.webhookEndpoint.create({
    data: { id: "titles-hook", workspaceId: "ws-demo", url: "https://hooks.example.com/parley", eventTypes: [], secret: "whsec_titles" },
  });
});

afterAll(async () => {
  await ctx.close();
});

describe("panelItemTitle", () => {
  it("names the item and its section", async () => {
    expect(await panelItemTitle(ctx.db, owner, "agent", "titles-support-bot")).toBe("Support bot · Agents");
    expect(await panelItemTitle(ctx.db, owner, "article", "titles-article")).toBe("Reset password article · Knowledge");
    const source = await ctx.db.prisma.source.findUniqueOrThrow({ where: { id: "src-start" }, select: { name: true } });
    expect(await panelItemTitle(ctx.db, owner, "source", "src-start")).toBe(`${source.name} · Knowledge`);
    expect(await panelItemTitle(ctx.db, owner, "webhook", "titles-hook")).toBe("https://hooks.example.com/parley · Webhooks");
  });

  it("keeps the generic title for an unknown item or another workspace's", async () => {
    expect(await panelItemTitle(ctx.db, owner, "agent", "no-such-agent")).toBe("Agent");
    expect(await panelItemTitle(ctx.db, owner, "agent", "titles-elsewhere")).toBe("Agent");
  });

  it("never reads a name the person's role may not see", async () => {
    const support = { workspaceId: "ws-demo", role: "support" as const };
    expect(await panelItemTitle(ctx.db, support, "agent", "titles-support-bot")).toBe("Agent");
    expect(await panelItemTitle(ctx.db, support, "webhook", "titles-hook")).toBe("Webhook endpoint");
  });
});
