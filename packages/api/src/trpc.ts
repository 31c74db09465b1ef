// tRPC setup of the control panel: the context (no Next.js imports: the route adapter builds it),
// the error mapping from core's AppError, and the procedure every router uses.

import type { AppContext } from "@parley/core";
import { AppError, ERRORS, fieldMessage, isAppError, pathOfUnstorableText, UNSTORABLE_TEXT_RULE } from "@parley/core";
import { type AdminScope, NO_CLIENT, type Permission, type RequestClient, refusalOf, roleMay } from "@parley/core/people";
import { type inferRouterError, initTRPC, TRPCError } from "@trpc/server";
import { ZodError, z } from "zod";

export interface TRPCContext {
  app: AppContext;
  /** The signed-in person from the session cookie (with the session's id when known), or null. */
  session: PanelSession | null;
  /**
   * False when the request carries an Origin header that is not the app's own: a cross-site page
   * riding on the admin's cookie. Such requests may not change anything.
   */
  sameOrigin: boolean;
  /** The request's client IP and User-Agent: every procedure's scope carries them into the audit log. */
  client: RequestClient;
}

export type PanelSession = AdminScope & { sessionId?: string };

/** What a procedure declares beside its input and output: the permission a role must hold to call it. */
export interface PanelMeta {
  permission?: Permission;
}

export function createTRPCContext(options: {
  ctx: AppContext;
  session: PanelSession | null;
  sameOrigin: boolean;
  client?: RequestClient;
}): TRPCContext {
  return { app: options.ctx, session: options.session, sameOrigin: options.sameOrigin, client: options.client ?? NO_CLIENT };
}

/**
 * The text tRPC's fetch adapter refuses a batch longer than its `maxBatchSize` with (before any
 * call runs); the response says it in the error table's words instead.
 */
const TRPC_BATCH_TOO_LARGE = "Batch call exceeds maximum size";

/** The response's message: the error table's text where tRPC's own would show, the error's otherwise. */
function messageOf(error: TRPCError, message: string): string {
  // Unexpected errors (a database failure, a bug) keep their text out of the response.
  if (error.code === "INTERNAL_SERVER_ERROR" && !isAppError(error.cause)) return ERRORS.INTERNAL.message;
  if (error.code === "BAD_REQUEST" && error.message === TRPC_BATCH_TOO_LARGE) return ERRORS.BATCH_TOO_LARGE.message;
  return message;
}

const t = initTRPC
  .context<TRPCContext>()
  .meta<PanelMeta>()
  .create({
    errorFormatter({ shape, error }) {
      // No stack trace in any response, development included (the server log has what is needed).
      const { stack: _stack, ...data } = shape.data;
      const zodError = error.code === "BAD_REQUEST" && error.cause instanceof ZodError ? error.cause : null;
      return {
        ...shape,
        message: messageOf(error, shape.message),
        data: {
          ...data,
          // Field errors of bad input, for inline messages in the panel's forms, written for people:
          // every issue with its full path (list items too), and the same flattened by field.
          issues: zodError
            ? zodError.issues.map((issue) => ({
                path: issue.path.map((part) => (typeof part === "number" ? part : String(part))),
                message: fieldMessage(issue),
              }))
            : null,
          zodError: zodError ? z.flattenError(zodError, fieldMessage) : null,
          // What exactly was wrong, as the REST error body's `details` says it (a refused webhook URL's reason).
          details: isAppError(error.cause) ? (error.cause.details ?? null) : null,
        },
      };
    },
  });

/** Core throws AppError; the panel gets the tRPC code its definition declares, with its text. */
const mapAppErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isAppError(result.error.cause)) {
    const cause = result.error.cause;
    throw new TRPCError({ code: cause.trpc, message: cause.message, cause });
  }
  return result;
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure.use(mapAppErrors);

/**
 * Needs a session whose role holds the permission in the procedure's meta (one without a
 * permission is refused for everyone); writes (mutations) must also come from the app's own
 * origin. Input holding text the database cannot store is refused next (400 naming the field),
 * before any procedure could fail with it in the database.
 */
export const protectedProcedure = publicProcedure.use(async ({ ctx, meta, type, getRawInput, next }) => {
  if (!ctx.session) throw new TRPCError({ code: "UNAUTHORIZED", message: ERRORS.UNAUTHORIZED.message });
  const permission = meta?.permission;
  if (!permission || !roleMay(ctx.session.role, permission)) {
    // The readable refusal travels as the error's details (the panel shows it where the action was tried).
    const cause = permission ? new AppError("FORBIDDEN", { details: refusalOf(permission) }) : undefined;
    throw new TRPCError({ code: "FORBIDDEN", message: ERRORS.FORBIDDEN.message, cause });
  }
  if (type === "mutation" && !ctx.sameOrigin) throw new TRPCError({ code: "FORBIDDEN", message: ERRORS.FORBIDDEN.message });
  const unstorable = pathOfUnstorableText(await getRawInput(), "input");
  if (unstorable !== null) throw new TRPCError({ code: "BAD_REQUEST", message: `${unstorable}: ${UNSTORABLE_TEXT_RULE}` });
  return next({ ctx: { ...ctx, session: { ...ctx.session, client: ctx.client } } });
});

/** The error shape of every procedure (errorFormatter's), as the panel's client infers it. */
export type PanelErrorShape = inferRouterError<ReturnType<typeof createTRPCRouter<Record<string, never>>>>;
