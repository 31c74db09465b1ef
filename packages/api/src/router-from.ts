// Builds a tRPC router from a core module's panel operations: each operation becomes a procedure
// of the same name with its permission in the meta, its input and output, and the type it names.
import type { AppContext } from "@parley/core";
import type { PanelOperation } from "@parley/core/people";
import type { AnyTRPCProcedure, TRPCMutationProcedure, TRPCQueryProcedure } from "@trpc/server";
import type { z } from "zod";
import { createTRPCRouter, type PanelErrorShape, type PanelMeta, protectedProcedure } from "./trpc.ts";

/** What the panel's client sees of an operation: the input it sends, the output it gets. */
interface ProcedureDef<Input, Output extends z.ZodType> {
  input: Input extends z.ZodType ? z.input<Input> : undefined;
  output: z.output<Output>;
  meta: PanelMeta;
  errorShape: PanelErrorShape;
}

type ProcedureOf<Operation> =
  Operation extends PanelOperation<infer Type, infer Context, infer Input, infer Output>
    ? AppContext extends Context
      ? Type extends "query"
        ? TRPCQueryProcedure<ProcedureDef<Input, Output>>
        : TRPCMutationProcedure<ProcedureDef<Input, Output>>
      : never
    : never;

function procedureOf(operation: PanelOperation): AnyTRPCProcedure {
  const declared = protectedProcedure.meta({ permission: operation.permission });
  const withInput = operation.input ? declared.input(operation.input) : declared;
  const procedure = withInput.output(operation.output);
  const run = ({ ctx, input }: { ctx: { app: AppContext; session: Parameters<PanelOperation["run"]>[0]["scope"] }; input: unknown }) =>
    operation.run({ app: ctx.app, scope: ctx.session }, input as never);
  return operation.type === "query" ? procedure.query(run) : procedure.mutation(run);
}

/** One router of the panel's API: a procedure per operation, named as the operation is. */
export function routerFrom<Operations extends Record<string, PanelOperation>>(operations: Operations) {
  const procedures = Object.fromEntries(Object.entries(operations).map(([name, operation]) => [name, procedureOf(operation)]));
  return createTRPCRouter(procedures as { [Name in keyof Operations]: ProcedureOf<Operations[Name]> });
}
