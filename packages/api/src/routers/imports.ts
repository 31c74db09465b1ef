// Article imports of a source: their progress and reports (an import is started by uploading to
// POST /api/panel/imports; the worker runs it).
import { getImport, importIdInput, listImports, listImportsInput } from "@parley/core/knowledge";
import { z } from "zod";
import { importJobDetailOutput, importJobOutput } from "../outputs.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const importsRouter = createTRPCRouter({
  list: protectedProcedure
    .input(listImportsInput)
    .output(z.array(importJobOutput))
    .query(({ ctx, input }) => listImports(ctx.app, ctx.session, input)),
  get: protectedProcedure
    .input(importIdInput)
    .output(importJobDetailOutput)
    .query(({ ctx, input }) => getImport(ctx.app, ctx.session, input)),
});
