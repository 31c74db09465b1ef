// Article imports of a source: their progress and reports (the `imports` router of packages/api;
// an import is started by uploading to POST /api/panel/imports, and the worker runs it).
import { z } from "zod";
import { panelOperationsOver } from "../../people/panel-operation.ts";
import type { PlatformContext } from "../../platform/context.ts";
import { count, id, moment } from "../../platform/panel-outputs.ts";
import { getImport, importIdInput, listImports, listImportsInput } from "./jobs.ts";

export const importJobOutput = z.object({
  id,
  sourceId: id,
  kind: z.enum(["markdown_zip", "urls", "zendesk", "intercom"]),
  status: z.enum(["queued", "running", "done", "failed"]),
  total: count,
  processed: count,
  created: count,
  updated: count,
  skipped: count,
  failed: count,
  /** Of those created, the drafts, and what the summary says of them (null: none). */
  drafts: count,
  draftNote: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: moment,
  startedAt: moment.nullable(),
  finishedAt: moment.nullable(),
});

export const importJobDetailOutput = importJobOutput.extend({
  report: z.array(
    z.object({
      item: z.string(),
      outcome: z.enum(["created", "updated", "skipped", "failed"]),
      reason: z.string().optional(),
      articleId: z.string().optional(),
    }),
  ),
});

const panel = panelOperationsOver<PlatformContext>();

export const importOperations = {
  list: panel.query({
    permission: "knowledge.read",
    input: listImportsInput,
    output: z.array(importJobOutput),
    run: ({ app, scope }, input) => listImports(app, scope, input),
  }),
  get: panel.query({
    permission: "knowledge.read",
    input: importIdInput,
    output: importJobDetailOutput,
    run: ({ app, scope }, input) => getImport(app, scope, input),
  }),
};
