// Starting an import and reading its progress (the panel). The upload is stored with the job and
// the work is done by the background worker (./runner.ts), never on the request.
import type { Prisma } from "@parley/db";
import { z } from "zod";
import { recordAudit } from "../../people/audit.ts";
import { assertMayCall } from "../../people/permissions.ts";
import { type AdminScope, assertSourceInWorkspace, rowId } from "../../people/scope.ts";
import type { PlatformContext } from "../../platform/context.ts";
import { AppError } from "../../platform/errors.ts";
import { enforceRateLimit } from "../../platform/ratelimit/index.ts";
import { storableQuery } from "../../platform/text.ts";
import { KNOWLEDGE_ERRORS } from "../errors.ts";
import { IMPORT_UPLOAD_MAX_BYTES, IMPORT_URLS_MAX, IMPORTS_PER_HOUR } from "../limits.ts";
import type { ReportEntry } from "./items.ts";
import { parseUrlList } from "./url-list.ts";

export const IMPORT_KINDS = ["markdown_zip", "urls", "zendesk", "intercom"] as const;
export type ImportKindName = (typeof IMPORT_KINDS)[number];

export const startImportQuery = z.object({ sourceId: rowId, kind: z.enum(IMPORT_KINDS) });
export const listImportsInput = z.object({ sourceId: rowId });
export const importIdInput = z.object({ id: rowId });

const IMPORT_POLICY = { name: "article-imports", limit: IMPORTS_PER_HOUR, windowSeconds: 3600 };
/** The operation of the upload route, as the permission table names it. */
export const START_IMPORT_OPERATION = "POST /api/panel/imports";

const jobSelect = {
  id: true,
  sourceId: true,
  kind: true,
  status: true,
  total: true,
  processed: true,
  created: true,
  updated: true,
  skipped: true,
  failed: true,
  drafts: true,
  error: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} satisfies Prisma.ImportJobSelect;

/**
 * Queues an import of `body` (the zip, the JSON export, or the URL list as text) into the source.
 * Checked before anything is stored: permission, the person's hourly limit, the source, the size.
 */
/** The upload route's query (`?sourceId=&kind=`), or a 400 naming what is wrong. */
export function parseStartImportQuery(params: URLSearchParams): z.infer<typeof startImportQuery> {
  const parsed = startImportQuery.safeParse(storableQuery(params));
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
  throw new AppError("INVALID_REQUEST", { details });
}

/**
 * Queues an import. Who may and which source are checked before the upload is read: `readBody`
 * (the route's transport) reads at most IMPORT_UPLOAD_MAX_BYTES, refusing more with a 413.
 */
export async function startImport(
  ctx: PlatformContext,
  scope: AdminScope,
  query: z.infer<typeof startImportQuery>,
  readBody: (maxBytes: number) => Promise<Uint8Array<ArrayBuffer>>,
): Promise<{ id: string }> {
  assertMayCall(scope, START_IMPORT_OPERATION);
  await assertSourceInWorkspace(ctx.db, scope.workspaceId, query.sourceId);
  const body = await readBody(IMPORT_UPLOAD_MAX_BYTES);
  if (body.length === 0) throw new AppError("INVALID_REQUEST", { details: "file: Choose a file to import (it is empty)" });
  if (body.length > IMPORT_UPLOAD_MAX_BYTES)
    throw new AppError("PAYLOAD_TOO_LARGE", { details: `At most ${IMPORT_UPLOAD_MAX_BYTES / 1024 / 1024} MB` });
  if (query.kind === "urls") {
    const count = parseUrlList(new TextDecoder().decode(body)).length;
    if (count === 0) throw new AppError("INVALID_REQUEST", { details: "urls: Enter at least one URL" });
    if (count > IMPORT_URLS_MAX) throw new AppError("INVALID_REQUEST", { details: `urls: At most ${IMPORT_URLS_MAX} URLs in one import` });
  }
  await enforceRateLimit(ctx.limiters.configured(IMPORT_POLICY), scope.userId);
  return ctx.db.prisma.$transaction(async (tx) => {
    const job = await tx.importJob.create({
      data: { sourceId: query.sourceId, kind: query.kind, createdById: scope.userId, payload: body },
      select: { id: true },
    });
    const source = await tx.source.findUniqueOrThrow({ where: { id: query.sourceId }, select: { name: true } });
    await recordAudit(tx, scope, {
      action: "source.import.started",
      targetType: "source",
      targetId: query.sourceId,
      targetLabel: source.name,
      detail: { kind: query.kind, import: job.id },
    });
    return job;
  });
}

/** The source's latest imports, newest first (progress and counts, not the item report). */
export async function listImports(ctx: PlatformContext, scope: AdminScope, input: z.infer<typeof listImportsInput>) {
  await assertSourceInWorkspace(ctx.db, scope.workspaceId, input.sourceId);
  const jobs = await ctx.db.prisma.importJob.findMany({
    where: { sourceId: input.sourceId },
    select: jobSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 10,
  });
  return jobs.map((job) => ({ ...job, draftNote: importDraftNote(job.kind, job.drafts) }));
}

/**
 * What an import's summary says of the drafts it created, and how to publish them; null when it
 * created none. A Markdown file is published by its front matter; other imports keep the state
 * their source gave (a page is always a draft, an export's draft stays one).
 */
export function importDraftNote(kind: ImportKindName, drafts: number): string | null {
  if (drafts === 0) return null;
  const one = drafts === 1;
  const created = `${drafts} created as ${one ? "a draft" : "drafts"}`;
  const them = one ? "it" : "them";
  if (kind === "markdown_zip")
    return `${created}: add \`published: true\` to ${one ? "its" : "their"} front matter and import again, or publish ${them} in the editor`;
  if (kind === "urls") return `${created}: review ${them} and publish ${them} in the editor`;
  return `${created}, as ${one ? "it was" : "they were"} in the export: publish ${them} in the editor`;
}

/** One import with its report, item by item. */
export async function getImport(ctx: PlatformContext, scope: AdminScope, input: z.infer<typeof importIdInput>) {
  const job = await ctx.db.prisma.importJob.findFirst({
    where: { id: input.id, source: { workspaceId: scope.workspaceId } },
    select: { ...jobSelect, report: true },
  });
  if (!job) throw new AppError(KNOWLEDGE_ERRORS.IMPORT_JOB_NOT_FOUND);
  return { ...job, draftNote: importDraftNote(job.kind, job.drafts), report: job.report as unknown as ReportEntry[] };
}
