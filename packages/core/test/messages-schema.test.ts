// The send-message body rules (spec 2.1, 8) with their exact boundaries (the body reader is the
// transport's: apps/web/test/json-body.test.ts). No database.
import { describe, expect, it } from "vitest";
import {
  CLIENT_VARIABLE_VALUE_MAX_CHARS,
  CLIENT_VARIABLES_MAX_KEYS,
  MESSAGE_MAX_CHARS,
  VISITOR_NAME_MAX_CHARS,
} from "../src/conversations/limits.ts";
import { parseIdempotencyKey, requestHash } from "../src/conversations/turn/idempotency.ts";
import { parseMessageRequest } from "../src/conversations/turn/message-schema.ts";
import { AppError } from "../src/platform/errors.ts";

/** The `details` of the 400 a body gets, or "ok". */
function details(body: unknown): string {
  try {
    parseMessageRequest(body);
    return "ok";
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("INVALID_REQUEST");
    expect((error as AppError).message).toBe("Invalid request");
    return (error as AppError).details ?? "";
  }
}

function variables(count: number, valueLength = 1): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, "v".repeat(valueLength)]));
}

describe("message", () => {
  it("is required, a string, not blank, at most 10,000 characters", () => {
    expect(details({})).toBe("message: is required");
    expect(details({ message: 5 })).toBe("message: must be a string");
    expect(details({ message: null })).toBe("message: must be a string");
    expect(details({ message: "" })).toBe("message: must not be empty");
    expect(details({ message: " \n\t " })).toBe("message: must not be empty");
    expect(details({ message: "x".repeat(MESSAGE_MAX_CHARS) })).toBe("ok");
    expect(details({ message: "x".repeat(MESSAGE_MAX_CHARS + 1) })).toBe("message: must be at most 10000 characters");
  });

  it("counts characters, not UTF-16 units", () => {
    expect(details({ message: "😀".repeat(MESSAGE_MAX_CHARS) })).toBe("ok");
    expect(details({ message: "😀".repeat(MESSAGE_MAX_CHARS + 1) })).toBe("message: must be at most 10000 characters");
  });
});

describe("conversationId", () => {
  it("is an optional non-empty string", () => {
    expect(details({ message: "hi", conversationId: "c1" })).toBe("ok");
    expect(details({ message: "hi", conversationId: 12 })).toBe("conversationId: must be a string");
    expect(details({ message: "hi", conversationId: "" })).toBe("conversationId: must not be empty");
  });
});

describe("visitor", () => {
  it("is an object of known fields", () => {
    expect(details({ message: "hi", visitor: "ada" })).toBe("visitor: must be an object");
    expect(details({ message: "hi", visitor: [] })).toBe("visitor: must be an object");
    expect(details({ message: "hi", visitor: {} })).toBe("ok");
    expect(details({ message: "hi", visitor: { age: 3 } })).toBe("visitor.age: is not a known field");
  });

  it("email must be an email", () => {
    expect(details({ message: "hi", visitor: { email: "ada@example.com" } })).toBe("ok");
    expect(details({ message: "hi", visitor: { email: "ada" } })).toBe("visitor.email: must be an email address");
    expect(details({ message: "hi", visitor: { email: 1 } })).toBe("visitor.email: must be a string");
  });

  it("name has at most 200 characters", () => {
    expect(details({ message: "hi", visitor: { name: "n".repeat(VISITOR_NAME_MAX_CHARS) } })).toBe("ok");
    expect(details({ message: "hi", visitor: { name: "n".repeat(VISITOR_NAME_MAX_CHARS + 1) } })).toBe(
      "visitor.name: must be at most 200 characters",
    );
  });

  it("phone is international: a leading + and digits", () => {
    const rule = "visitor.phone: must be in international format: + then 7 to 15 digits, e.g. +14155550100";
    expect(details({ message: "hi", visitor: { phone: "+14155550100" } })).toBe("ok");
    expect(details({ message: "hi", visitor: { phone: "14155550100" } })).toBe(rule);
    expect(details({ message: "hi", visitor: { phone: "+1 415 555 0100" } })).toBe(rule);
    expect(details({ message: "hi", visitor: { phone: "+0123456789" } })).toBe(rule);
    expect(details({ message: "hi", visitor: { phone: "+123456" } })).toBe(rule);
    expect(details({ message: "hi", visitor: { phone: "+1234567" } })).toBe("ok");
    expect(details({ message: "hi", visitor: { phone: "+123456789012345" } })).toBe("ok");
    expect(details({ message: "hi", visitor: { phone: "+1234567890123456" } })).toBe(rule);
  });
});

describe("clientVariables", () => {
  it("is an object of strings", () => {
    expect(details({ message: "hi", clientVariables: "x" })).toBe("clientVariables: must be an object of strings");
    expect(details({ message: "hi", clientVariables: ["a"] })).toBe("clientVariables: must be an object of strings");
    expect(details({ message: "hi", clientVariables: { plan: 3 } })).toBe("clientVariables.plan: must be a string");
    expect(details({ message: "hi", clientVariables: { plan: null } })).toBe("clientVariables.plan: must be a string");
  });

  it("has at most 50 keys", () => {
    expect(details({ message: "hi", clientVariables: variables(CLIENT_VARIABLES_MAX_KEYS) })).toBe("ok");
    expect(details({ message: "hi", clientVariables: variables(CLIENT_VARIABLES_MAX_KEYS + 1) })).toBe(
      "clientVariables: must have at most 50 keys",
    );
  });

  it("has values of at most 1,024 characters", () => {
    expect(details({ message: "hi", clientVariables: { plan: "v".repeat(CLIENT_VARIABLE_VALUE_MAX_CHARS) } })).toBe("ok");
    expect(details({ message: "hi", clientVariables: { plan: "v".repeat(CLIENT_VARIABLE_VALUE_MAX_CHARS + 1) } })).toBe(
      "clientVariables.plan: must be at most 1024 characters",
    );
  });
});

describe("the body as a whole", () => {
  it("rejects unknown top-level fields and non-objects", () => {
    expect(details({ message: "hi", metadata: {} })).toBe("metadata: is not a known field");
    expect(details([])).toBe("body: must be a JSON object");
    expect(details("hi")).toBe("body: must be a JSON object");
    expect(details(null)).toBe("body: must be a JSON object");
  });

  it("names every problem", () => {
    expect(details({ message: "", visitor: { email: "x" }, extra: 1 })).toBe(
      "message: must not be empty; visitor.email: must be an email address; extra: is not a known field",
    );
  });
});

describe("Idempotency-Key", () => {
  it("is optional, 1 to 255 characters", () => {
    expect(parseIdempotencyKey(null)).toBeUndefined();
    expect(parseIdempotencyKey("k".repeat(255))).toBe("k".repeat(255));
    expect(() => parseIdempotencyKey("k".repeat(256))).toThrow(AppError);
    expect(() => parseIdempotencyKey("")).toThrow(AppError);
  });

  it("hashes requests canonically: key order does not matter, content does", () => {
    const a = requestHash({ message: "hi", visitor: { name: "Ada", email: "a@b.co" } });
    expect(requestHash({ visitor: { email: "a@b.co", name: "Ada" }, message: "hi" })).toBe(a);
    expect(requestHash({ message: "hi!", visitor: { name: "Ada", email: "a@b.co" } })).not.toBe(a);
  });
});
