// The getting-started checklist's "Embed the chat widget": ticked by the widget's first connection
// from an allowed site other than this server's own pages (its help centre runs the widget too).
import type { TestContext } from "@parley/testing/context";
import { createMessagingContext } from "@parley/testing/messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAnotherSite, recordWidgetSite } from "../src/widget/site-seen.ts";

const APP_URL = "https://support.example.com";
const NOW = new Date("2026-11-28T01:00:00Z");

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createMessagingContext({ appUrl: APP_URL });
});

afterAll(async () => {
  await ctx.close();
});

describe("isAnotherSite", () => {
  it("is false for this server's own origin (the help centre), in any letter case", () => {
    expect(isAnotherSite("https://support.example.com", APP_URL)).toBe(false);
    expect(isAnotherSite("https://Support.Example.com", APP_URL)).toBe(false);
    expect(isAnotherSite("https://support.example.com", `${APP_URL}/`)).toBe(false);
  });

  it("is true for any other scheme, host or port", () => {
    expect(isAnotherSite("https://www.example.com", APP_URL)).toBe(true);
    expect(isAnotherSite("http://support.example.com", APP_URL)).toBe(true);
    expect(isAnotherSite("https://support.example.com:8443", APP_URL)).toBe(true);
  });
});

describe("recordWidgetSite", () => {
  async function agent(id: string) {
    await ctx.db.prisma.agent.create({ data: { id, workspaceId: "ws-demo", name: id } });
    const read = () =>
      ctx.db.prisma.agent.findUniqueOrThrow({ where: { id }, select: { id: true, widgetSiteSeenAt: true, widgetSiteOrigin: true } });
    return read;
  }

  it("leaves the help centre's connections out and stores the first other site with its time", async () => {
    const read = await agent("site-seen-a");
    expect(await recordWidgetSite(ctx.db, await read(), APP_URL, APP_URL, NOW)).toBe(false);
    expect(await read()).toMatchObject({ widgetSiteSeenAt: null, widgetSiteOrigin: null });

    expect(await recordWidgetSite(ctx.db, await read(), "https://WWW.example.com", APP_URL, NOW)).toBe(true);
    expect(await read()).toMatchObject({ widgetSiteSeenAt: NOW, widgetSiteOrigin: "https://www.example.com" });
  });

  it("keeps the first site: later and concurrent connections change nothing", async () => {
    const read = await agent("site-seen-b");
    const before = await read();
    const results = await Promise.all(
      ["https://one.example.com", "https://two.example.com", "https://three.example.com"].map((origin) =>
        recordWidgetSite(ctx.db, before, origin, APP_URL, NOW),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const first = await read();
    expect(await recordWidgetSite(ctx.db, first, "https://later.example.com", APP_URL, new Date(NOW.getTime() + 1000))).toBe(false);
    expect(await read()).toEqual(first);
  });
});
