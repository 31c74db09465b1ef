// Turns tRPC errors into what the panel shows: one message, plus zod issues by form field.
import { TRPCClientError } from "@trpc/client";

export type FieldErrors = Record<string, string>;

interface ZodIssueLike {
  path: Array<string | number>;
  message: string;
}

function httpStatus(error: unknown): number | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data = error.data as { httpStatus?: unknown } | undefined;
  return typeof data?.httpStatus === "number" ? data.httpStatus : undefined;
}

function trpcCode(error: unknown): string | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data = error.data as { code?: unknown } | undefined;
  return typeof data?.code === "string" ? data.code : undefined;
}

/** The server's `details` of an expected error (what exactly was refused), when it gave one. */
export function errorDetails(error: unknown): string | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data = error.data as { details?: unknown } | undefined;
  return typeof data?.details === "string" ? data.details : undefined;
}

export function errorCode(error: unknown): string | undefined {
  return trpcCode(error);
}

export function isUnauthorized(error: unknown): boolean {
  return trpcCode(error) === "UNAUTHORIZED" || httpStatus(error) === 401;
}

export function isNotFound(error: unknown): boolean {
  return trpcCode(error) === "NOT_FOUND" || httpStatus(error) === 404;
}

export function isClientError(error: unknown): boolean {
  const status = httpStatus(error);
  return status !== undefined && status >= 400 && status < 500;
}

function isIssue(value: unknown): value is ZodIssueLike {
  if (typeof value !== "object" || value === null) return false;
  const issue = value as Partial<ZodIssueLike>;
  return Array.isArray(issue.path) && typeof issue.message === "string";
}

/**
 * Zod issues of a BAD_REQUEST, with messages written for people (the server's errorFormatter turns
 * zod's texts into core's field messages): each with its full path (list indexes too).
 */
function zodIssues(error: unknown): ZodIssueLike[] {
  if (!(error instanceof TRPCClientError) || trpcCode(error) !== "BAD_REQUEST") return [];
  const data = error.data as { issues?: unknown } | undefined;
  return Array.isArray(data?.issues) ? data.issues.filter(isIssue) : [];
}

/** The first issue per top-level field; list items say which line (for one-per-line inputs). */
export function fieldErrors(error: unknown): FieldErrors {
  const result: FieldErrors = {};
  for (const issue of zodIssues(error)) {
    const [field, index] = issue.path;
    if (field === undefined) continue;
    const key = String(field);
    if (result[key]) continue;
    result[key] = typeof index === "number" ? `Line ${index + 1}: ${issue.message}` : issue.message;
  }
  return result;
}

/** The first issue per field of one nested object input (`branding.logoUrl` → `logoUrl`); list items under their index. */
export function nestedFieldErrors(error: unknown, field: string): FieldErrors {
  const result: FieldErrors = {};
  for (const issue of zodIssues(error)) {
    if (issue.path[0] !== field || issue.path[1] === undefined) continue;
    const key = issue.path.slice(1, 3).map(String).join(".");
    result[key] ??= issue.message;
  }
  return result;
}

/** A sentence to show next to the action that failed. */
export function errorMessage(error: unknown): string {
  if (error === null || error === undefined) return "";
  const issues = zodIssues(error);
  if (issues.length > 0) {
    const general = issues.find((issue) => issue.path.length === 0);
    return general ? general.message : "Please correct the highlighted fields.";
  }
  if (error instanceof TRPCClientError) {
    if (trpcCode(error) === "INTERNAL_SERVER_ERROR") return "Something went wrong on the server. Please try again.";
    // A refusal by role: core's readable sentence (what was refused, who may, who changes roles).
    if (trpcCode(error) === "FORBIDDEN" && errorDetails(error)) return errorDetails(error) as string;
    if (!error.data && /fetch|network/i.test(error.message)) return "Could not reach the server. Check your connection and try again.";
    return error.message;
  }
  if (error instanceof Error) return error.message;
  return "Something went wrong.";
}
