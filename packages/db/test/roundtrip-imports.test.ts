// Article imports round-trip every field through the Prisma client (as roundtrip.test.ts does for
// the others): a finished job and a queued one with its upload, and an imported article's source URL.
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAllFields } from "./support/fields.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.workspace.create({ data: { id: "ws-imp", name: "Imports" } });
  await db.prisma.source.create({ data: { id: "src-imp", workspaceId: "ws-imp", name: "Imported" } });
});
afterAll(async () => {
  await db.close();
});

const t = (iso: string) => new Date(iso);

describe("imports round-trip every field", () => {
  it("ImportJob, queued with its upload and finished with its report", async () => {
    const queued = {
      id: "imp-queued",
      sourceId: "src-imp",
      createdById: "user-x",
      kind: "markdown_zip" as const,
      status: "queued" as const,
      payload: new Uint8Array([80, 75, 3, 4, 0, 255]),
      total: 0,
      processed: 0,
      created: 0,
      updated: 0,
      skipped: 0,
      failed: 0,
      drafts: 0,
      report: [],
      error: null,
      claimToken: null,
      lockedUntil: null,
      createdAt: t("2026-11-28T10:00:00.001Z"),
      startedAt: null,
      finishedAt: null,
    };
    const finished = {
      ...queued,
      id: "imp-done",
      createdById: null,
      kind: "intercom" as const,
      status: "failed" as const,
      payload: null,
      total: 3,
      processed: 3,
      created: 1,
      updated: 1,
      skipped: 0,
      failed: 1,
      drafts: 2,
      report: [{ item: "Ünïcode.md", outcome: "failed", reason: "No title — “quoted”" }],
      error: "The file is not JSON",
      claimToken: "tok",
      lockedUntil: t("2026-11-28T10:05:00.000Z"),
      startedAt: t("2026-11-28T10:01:00.002Z"),
      finishedAt: t("2026-11-28T10:02:00.003Z"),
    };
    for (const job of [queued, finished]) {
      await db.prisma.importJob.create({ data: job });
      expectAllFields("ImportJob", job, await db.prisma.importJob.findUniqueOrThrow({ where: { id: job.id } }));
    }
  });

  it("Article's source URL and slug", async () => {
    const article = await db.prisma.article.create({
      data: { sourceId: "src-imp", title: "T", slug: "t-1", content: "c", sourceUrl: "https://help.example.com/a?b=ü" },
    });
    expect(await db.prisma.article.findUniqueOrThrow({ where: { id: article.id } })).toMatchObject({
      slug: "t-1",
      sourceUrl: "https://help.example.com/a?b=ü",
    });
  });
});
