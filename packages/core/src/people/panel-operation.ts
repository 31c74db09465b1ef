// A control-panel operation, declared beside the code it calls: who may call it (a permission),
// what it takes and returns (zod schemas: the result is parsed through `output`, so a key it does
// not name never reaches the panel), and what it does. packages/api turns each one into a tRPC
// procedure of the same name; core knows nothing of tRPC.
import type { z } from "zod";
import type { Permission } from "./permissions.ts";
import type { AdminScope, RequestClient } from "./scope.ts";

/** Who calls: the signed-in person's scope (with the session's id), and the request's client for the audit log. */
export type PanelScope = AdminScope & { sessionId?: string; client: RequestClient };

/** What an operation runs with: the app's context (as much of it as the module needs) and the caller. */
export interface PanelCall<Context> {
  app: Context;
  scope: PanelScope;
}

export type PanelOperationType = "query" | "mutation";

/** The parsed input an operation runs with: nothing when it declares no input. */
export type PanelInput<Input> = Input extends z.ZodType ? z.output<Input> : undefined;

export interface PanelOperation<
  Type extends PanelOperationType = PanelOperationType,
  Context = unknown,
  Input extends z.ZodType | undefined = z.ZodType | undefined,
  Output extends z.ZodType = z.ZodType,
> {
  /** A query reads; a mutation changes something (and must come from the app's own origin). */
  type: Type;
  /** The permission a role must hold (permissions.ts); the panel answers 403 "Forbidden" otherwise. */
  permission: Permission;
  input: Input;
  output: Output;
  // A method, so an operation over a module's narrower context still fits a list of operations.
  run(call: PanelCall<Context>, input: PanelInput<Input>): Promise<z.input<Output>> | z.input<Output>;
}

interface PanelOperationFields<Context, Input extends z.ZodType | undefined, Output extends z.ZodType> {
  permission: Permission;
  input?: Input;
  output: Output;
  run(call: PanelCall<Context>, input: PanelInput<Input>): Promise<z.input<Output>> | z.input<Output>;
}

/**
 * The two ways to declare an operation over a module's context, e.g.
 * `const panel = panelOperationsOver<PlatformContext>();` then `panel.query({ permission, output, run })`.
 */
export function panelOperationsOver<Context>() {
  return {
    query<Output extends z.ZodType, Input extends z.ZodType | undefined = undefined>(
      fields: PanelOperationFields<Context, Input, Output>,
    ): PanelOperation<"query", Context, Input, Output> {
      return { type: "query", permission: fields.permission, input: fields.input as Input, output: fields.output, run: fields.run };
    },
    mutation<Output extends z.ZodType, Input extends z.ZodType | undefined = undefined>(
      fields: PanelOperationFields<Context, Input, Output>,
    ): PanelOperation<"mutation", Context, Input, Output> {
      return { type: "mutation", permission: fields.permission, input: fields.input as Input, output: fields.output, run: fields.run };
    },
  };
}
