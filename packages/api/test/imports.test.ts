// Starting an import (the upload route's core call) and reading it back through imports.*: who
// may, what is refused before anything is stored, the hourly limit, and another workspace's
// imports being not found.
import { parseStartImportQuery, startImport } from "@parley/core/knowledge";
import { IMPORTS_PER_HOUR } from "@parley/core/knowledge/limits";
import type { TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let b: Workspace;

beforeAll(async () => {
  ({ ctx, a, b } = await setup());
});

afterAll(async () => {
  await ctx?.close();
});

/** The route's body reader over a fixed upload. */
const bytes = (text: string) => async () => new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
/** A reader that must not be called: the refusal comes before the upload is read. */
const unread = async (): Promise<Uint8Array<ArrayBuffer>> => {
  throw new Error("the upload was read before the refusal");
};

describe("starting an import", () => {
  it("queues the upload for the worker and lists it with its progress", async () => {
    const { id } = await startImport(
      ctx,
      a.scope,
      { sourceId: a.sourceId, kind: "urls" },
      bytes("https://example.com/a\nhttps://example.com/b"),
    );
    const listed = await callerFor(ctx, a.scope).imports.list({ sourceId: a.sourceId });
    expect(listed[0]).toMatchObject({ id, kind: "urls", status: "queued", processed: 0, created: 0, failed: 0, error: null });
    expect(await callerFor(ctx, a.scope).imports.get({ id })).toMatchObject({ id, report: [] });
    const stored = await ctx.db.prisma.importJob.findUniqueOrThrow({ where: { id } });
    expect(Buffer.from(stored.payload ?? []).toString()).toBe("https://example.com/a\nhttps://example.com/b");
  });

  it("refuses, storing nothing: a support person, another workspace's source, an empty upload, no URLs", async () => {
    const before = await ctx.db.prisma.importJob.count();
    await expect(
      startImport(ctx, { ...a.scope, role: "support" }, { sourceId: a.sourceId, kind: "markdown_zip" }, unread),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(startImport(ctx, a.scope, { sourceId: b.sourceId, kind: "markdown_zip" }, unread)).rejects.toMatchObject({
      code: "SOURCE_NOT_FOUND",
    });
    await expect(startImport(ctx, a.scope, { sourceId: a.sourceId, kind: "zendesk" }, bytes(""))).rejects.toMatchObject({
      code: "INVALID_REQUEST",
      details: "file: Choose a file to import (it is empty)",
    });
    await expect(startImport(ctx, a.scope, { sourceId: a.sourceId, kind: "urls" }, bytes("  \n "))).rejects.toMatchObject({
      code: "INVALID_REQUEST",
      details: "urls: Enter at least one URL",
    });
    expect(await ctx.db.prisma.importJob.count()).toBe(before);
  });

  it("refuses a query the database cannot store (a NUL), naming the parameter", () => {
    for (const query of ["sourceId=%00&kind=urls", `sourceId=${a.sourceId}&kind=urls%00`]) {
      const name = query.includes("kind=urls%00") ? "kind" : "sourceId";
      expect(() => parseStartImportQuery(new URLSearchParams(query)), query).toThrow(
        expect.objectContaining({ code: "INVALID_REQUEST", details: `${name}: must be valid Unicode text without NUL characters` }),
      );
    }
  });

  it("allows a few imports per person per hour", async () => {
    const scope = { ...b.scope, userId: "beta-admin" };
    for (let n = 0; n < IMPORTS_PER_HOUR; n++) await startImport(ctx, scope, { sourceId: b.sourceId, kind: "intercom" }, bytes("{}"));
    await expect(startImport(ctx, scope, { sourceId: b.sourceId, kind: "intercom" }, bytes("{}"))).rejects.toMatchObject({
      code: "RATE_LIMITED",
    });
  });

  it("treats another workspace's import as not found", async () => {
    const { id } = await startImport(ctx, a.scope, { sourceId: a.sourceId, kind: "markdown_zip" }, bytes("PK"));
    await expect(callerFor(ctx, b.scope).imports.get({ id })).rejects.toMatchObject({ code: "NOT_FOUND", message: "Import not found" });
    await expect(callerFor(ctx, b.scope).imports.list({ sourceId: a.sourceId })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
