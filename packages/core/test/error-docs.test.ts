// The documentation anchors of the error table: one per code, stable and distinct, and the Link
// header value that points at them.
import { describe, expect, it } from "vitest";
import { ERROR_CODES, ERROR_DOCS, ERROR_TABLES, ERRORS, type ErrorCode } from "../src/error-table.ts";
import { errorDocsAnchor, errorDocsLink, errorDocsUrl } from "../src/platform/error-docs.ts";
import { AppError, type ErrorDefinition } from "../src/platform/errors.ts";

describe("the assembled error table", () => {
  it("has every code defined exactly once, in platform's table or one module's", () => {
    const defined = ERROR_TABLES.flatMap((table) => Object.keys(table));
    expect(defined.length).toBe(53);
    expect(new Set(defined).size).toBe(defined.length);
    expect([...ERROR_CODES].sort()).toEqual([...defined].sort());
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });

  it("gives each definition its own code, and AppError its status, text and tRPC code", () => {
    for (const table of ERROR_TABLES) {
      for (const [code, definition] of Object.entries(table) as [ErrorCode, ErrorDefinition][]) {
        expect(definition.code).toBe(code);
        const error = new AppError(definition);
        expect({ status: error.status, message: error.message, trpc: error.trpc }).toEqual(ERRORS[code]);
        expect(error.code).toBe(code);
      }
    }
    expect(new AppError("INVALID_REQUEST", { details: "x: y" }).toBody()).toEqual({ error: "Invalid request", details: "x: y" });
  });
});

describe("error documentation anchors", () => {
  it("are errors- and the code in kebab case, one per entry of the error table", () => {
    expect(ERROR_CODES).toEqual(Object.keys(ERRORS));
    expect(errorDocsAnchor("RATE_LIMITED")).toBe("errors-rate-limited");
    expect(errorDocsAnchor("WEBHOOK_URL_NOT_ALLOWED")).toBe("errors-webhook-url-not-allowed");
    expect(errorDocsAnchor("INTERNAL")).toBe("errors-internal");
    const anchors = ERROR_CODES.map(errorDocsAnchor);
    expect(new Set(anchors).size).toBe(ERROR_CODES.length);
    for (const anchor of anchors) expect(anchor).toMatch(/^errors-[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("are linked as the help relation of the /docs page", () => {
    expect(errorDocsUrl("NOT_FOUND")).toBe("/docs#errors-not-found");
    expect(errorDocsLink("MISSING_BEARER_TOKEN")).toBe('</docs#errors-missing-bearer-token>; rel="help"');
  });

  it("every code has a meaning and what to do", () => {
    for (const code of ERROR_CODES) {
      expect(ERROR_DOCS[code].meaning.length, code).toBeGreaterThan(10);
      expect(ERROR_DOCS[code].action.length, code).toBeGreaterThan(10);
    }
  });
});
