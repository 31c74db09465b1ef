// The inbox export on a real database: CSV (one row per message, quoted, safe to open in a
// spreadsheet) and JSON transcripts, with the inbox's filters, every matching conversation once
// across pages, only the person's workspace, no internal notes, and the hourly limit.
import { INBOX_EXPORT_PAGE, INBOX_EXPORTS_PER_HOUR } from "@parley/core/conversations/limits";
import { createTestContext, type TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportConversations, parseExportQuery, spreadsheetSafe } from "../src/conversations/inbox/export.ts";
import type { AdminScope } from "../src/people/scope.ts";
import type { HttpResult } from "../src/platform/results.ts";

let ctx: TestContext;
const alpha: AdminScope = { userId: "alpha-admin", workspaceId: "alpha-ws", role: "owner" };
const beta: AdminScope = { userId: "beta-admin", workspaceId: "beta-ws", role: "admin" };
const NOW = new Date("2026-11-27T09:00:00.000Z");

beforeAll(async () => {
  ctx = await createTestContext({ now: () => NOW });
  for (const scope of [alpha, beta]) {
    const prefix = scope.workspaceId.replace("-ws", "");
    await ctx.db.prisma.workspace.create({ data: { id: scope.workspaceId, name: prefix } });
    await ctx.db.prisma.user.create({
      data: {
        id: scope.userId,
        workspaceId: scope.workspaceId,
        email: `${prefix}@example.com`,
        name: `${prefix} admin`,
        passwordHash: "x",
      },
    });
    await ctx.db.prisma.agent.create({ data: { id: `${prefix}-agent`, workspaceId: scope.workspaceId, name: `${prefix} support` } });
  }
  await ctx.db.prisma.conversation.create({
    data: {
      id: "conv-ada",
      agentId: "alpha-agent",
      channel: "widget",
      status: "resolved",
      visitorName: 'Ada, "the" Lovelace',
      visitorEmail: "ada@example.com",
      assigneeId: "alpha-admin",
      clientVariables: { plan: "pro" },
      createdAt: new Date("2026-11-26T10:00:00.000Z"),
      messageCount: 3,
      messages: {
        create: [
          {
            role: "user",
            text: '=HYPERLINK("http://evil.example")\nsecond line',
            sequence: 0,
            createdAt: new Date("2026-11-26T10:00:01.000Z"),
          },
          { role: "agent", text: "From “Refunds”: we refund within 5 days.", sequence: 1, createdAt: new Date("2026-11-26T10:00:02.000Z") },
          { role: "human", text: "Done, Ada.", sequence: 2, createdAt: new Date("2026-11-26T10:05:00.000Z") },
        ],
      },
      notes: { create: { text: "NOTE-NOT-EXPORTED", authorId: "alpha-admin" } },
    },
  });
  await ctx.db.prisma.conversation.create({
    data: { id: "conv-empty", agentId: "alpha-agent", createdAt: new Date("2026-11-26T11:00:00.000Z") },
  });
  await ctx.db.prisma.conversation.create({
    data: {
      id: "conv-beta",
      agentId: "beta-agent",
      messageCount: 1,
      messages: { create: { role: "user", text: "BETA-ONLY", sequence: 0 } },
    },
  });
});

afterAll(async () => {
  await ctx?.close();
});

async function body(result: HttpResult): Promise<string> {
  let text = "";
  for await (const piece of result.stream!) text += piece;
  return text;
}

const query = (params: Record<string, string>) => parseExportQuery(new URLSearchParams(params));

describe("CSV", () => {
  it("has a header and one row per message, quoted, with formulas neutralised, newest conversation first", async () => {
    const result = await exportConversations(ctx, alpha, query({ format: "csv" }));
    expect(result.status).toBe(200);
    expect(result.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(result.headers["content-disposition"]).toBe('attachment; filename="parley-conversations-2026-11-27.csv"');
    expect(result.headers["cache-control"]).toBe("no-store");
    expect(result.headers.ratelimit).toMatch(/^"inbox-export";r=\d+;t=\d+$/);
    const text = await body(result);
    expect(text.startsWith("\uFEFFconversation_id,agent_id,agent_name,channel,status,assignee,visitor_name,")).toBe(true);
    expect(text).toContain("conv-empty,alpha-agent,alpha support,api,active,,,,,,2026-11-26T11:00:00.000Z,,,,\n");
    expect(text).toContain(
      'conv-ada,alpha-agent,alpha support,widget,resolved,alpha admin,"Ada, ""the"" Lovelace",ada@example.com,,,2026-11-26T10:00:00.000Z,0,visitor,2026-11-26T10:00:01.000Z,"\'=HYPERLINK(""http://evil.example"")\nsecond line"\n',
    );
    expect(text).toContain(',2,team,2026-11-26T10:05:00.000Z,"Done, Ada."\n');
    expect(text.indexOf("conv-empty")).toBeLessThan(text.indexOf("conv-ada"));
    expect(text).not.toContain("BETA-ONLY");
    expect(text).not.toContain("NOTE-NOT-EXPORTED");
  });

  it("leaves ordinary cells alone and prefixes the ones a spreadsheet would run", () => {
    expect(["Hello", "-5 days", "+1", "@sum", "\tx", "a=b"].map(spreadsheetSafe)).toEqual([
      "Hello",
      "'-5 days",
      "'+1",
      "'@sum",
      "'\tx",
      "a=b",
    ]);
  });

  it("reads a cell as a spreadsheet may (NFKC): fullwidth and small-form = + - @ are prefixed too, the text kept as written", () => {
    expect(["＝HYPERLINK(1)", "＋1", "－5", "＠sum", "﹦1", "﹢1", "﹣1", "﹫x", "a＝b", "Ｈello"].map(spreadsheetSafe)).toEqual([
      "'＝HYPERLINK(1)",
      "'＋1",
      "'－5",
      "'＠sum",
      "'﹦1",
      "'﹢1",
      "'﹣1",
      "'﹫x",
      "a＝b",
      "Ｈello",
    ]);
  });
});

describe("JSON transcripts", () => {
  it("hold each conversation with its visitor, variables and messages in order, and the filters apply", async () => {
    const result = await exportConversations(ctx, alpha, query({ format: "json", status: "resolved" }));
    expect(result.headers["content-type"]).toBe("application/json; charset=utf-8");
    const parsed = JSON.parse(await body(result));
    expect(parsed.conversations).toEqual([
      {
        id: "conv-ada",
        agent: { id: "alpha-agent", name: "alpha support" },
        channel: "widget",
        status: "resolved",
        assignee: "alpha admin",
        visitor: { name: 'Ada, "the" Lovelace', email: "ada@example.com", phone: null },
        firstPageUrl: null,
        clientVariables: { plan: "pro" },
        pageVariables: {},
        createdAt: "2026-11-26T10:00:00.000Z",
        updatedAt: expect.any(String),
        messages: [
          { sequence: 0, from: "visitor", text: '=HYPERLINK("http://evil.example")\nsecond line', createdAt: "2026-11-26T10:00:01.000Z" },
          { sequence: 1, from: "agent", text: "From “Refunds”: we refund within 5 days.", createdAt: "2026-11-26T10:00:02.000Z" },
          { sequence: 2, from: "team", text: "Done, Ada.", createdAt: "2026-11-26T10:05:00.000Z" },
        ],
      },
    ]);
    const searched = JSON.parse(await body(await exportConversations(ctx, alpha, query({ format: "json", q: "refund" }))));
    expect(searched.conversations.map((c: { id: string }) => c.id)).toEqual(["conv-ada"]);
    const none = JSON.parse(
      await body(await exportConversations(ctx, alpha, query({ format: "json", channel: "api", status: "resolved" }))),
    );
    expect(none).toEqual({ conversations: [] });
  });
});

describe("paging", () => {
  it("writes every matching conversation exactly once across pages", async () => {
    const count = INBOX_EXPORT_PAGE * 2 + 7;
    const base = Date.parse("2026-10-01T00:00:00.000Z");
    await ctx.db.prisma.conversation.createMany({
      data: Array.from({ length: count }, (_, i) => ({
        id: `conv-bulk-${String(i).padStart(4, "0")}`,
        agentId: "alpha-agent",
        // Pairs share a start time: the id breaks the tie, so none is skipped at a page boundary.
        createdAt: new Date(base + Math.floor(i / 2) * 1000),
      })),
    });
    const parsed = JSON.parse(
      await body(await exportConversations(ctx, alpha, query({ format: "json", createdTo: "2026-11-01T00:00:00.000Z" }))),
    );
    const ids: string[] = parsed.conversations.map((c: { id: string }) => c.id);
    expect(ids).toHaveLength(count);
    expect(new Set(ids).size).toBe(count);
    expect(ids[0]).toBe(`conv-bulk-${String(count - 1).padStart(4, "0")}`);
    expect(ids.at(-1)).toBe("conv-bulk-0000");
  });
});

describe("refusals", () => {
  it("names a bad filter or format", () => {
    expect(() => query({ format: "xml" })).toThrow(
      expect.objectContaining({ code: "INVALID_REQUEST", details: expect.stringContaining("format") }),
    );
    expect(() => query({ format: "csv", createdFrom: "yesterday" })).toThrow(expect.objectContaining({ code: "INVALID_REQUEST" }));
  });

  it("names a filter the database cannot store (a NUL), before anything is counted or audited", () => {
    for (const format of ["csv", "json"]) {
      for (const name of ["assignee", "q", "agentId", "status", "createdFrom"]) {
        expect(() => query({ format, [name]: "a\u0000" }), `${format} ${name}`).toThrow(
          expect.objectContaining({ code: "INVALID_REQUEST", details: `${name}: must be valid Unicode text without NUL characters` }),
        );
      }
    }
    expect(() => query({ format: "csv\u0000" })).toThrow(
      expect.objectContaining({ code: "INVALID_REQUEST", details: "format: must be valid Unicode text without NUL characters" }),
    );
  });

  it("is for owners and admins: support and editors get Forbidden", async () => {
    for (const role of ["support", "editor"] as const) {
      await expect(exportConversations(ctx, { ...alpha, role }, query({ format: "csv" }))).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
  });

  it("allows a person a few exports an hour, then 429 with Retry-After", async () => {
    for (let i = 0; i < INBOX_EXPORTS_PER_HOUR; i++) await exportConversations(ctx, beta, query({ format: "csv" }));
    await expect(exportConversations(ctx, beta, query({ format: "csv" }))).rejects.toMatchObject({
      code: "RATE_LIMITED",
      headers: expect.objectContaining({ "retry-after": expect.any(String) }),
    });
  });
});
