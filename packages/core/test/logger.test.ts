// describeError: the one way an error becomes a log field. Class name and message on one line,
// never a stack trace, never a secret the message happens to quote.
import { describe, expect, it } from "vitest";
import { describeError } from "../src/platform/logger.ts";

class PrismaClientKnownRequestError extends Error {
  override name = "PrismaClientKnownRequestError";
}
class AttemptError extends Error {}

describe("describeError", () => {
  it("gives the class name and the message", () => {
    expect(describeError(new Error("boom"))).toBe("Error: boom");
    expect(describeError(new TypeError("not a function"))).toBe("TypeError: not a function");
    expect(describeError(new PrismaClientKnownRequestError("Unique constraint failed on the fields: (`key`)"))).toBe(
      "PrismaClientKnownRequestError: Unique constraint failed on the fields: (`key`)",
    );
    // A subclass that does not set `name` is still named by its class.
    expect(describeError(new AttemptError("Timed out after 10 s"))).toBe("AttemptError: Timed out after 10 s");
    expect(describeError(new Error(""))).toBe("Error");
  });

  it("is one line and never holds the stack", () => {
    const error = new Error("\nInvalid `prisma.agent.findMany()` invocation:\n\n\n  The table does not exist\n");
    const line = describeError(error);
    expect(line).toBe("Error: Invalid `prisma.agent.findMany()` invocation: The table does not exist");
    expect(line).not.toContain("\n");
    expect(line).not.toContain(" at ");
    expect(error.stack).toContain(" at ");
  });

  it("masks secrets a message quotes", () => {
    expect(describeError(new Error("connect ECONNREFUSED redis://default:hunter2@10.0.0.5:6379"))).toBe(
      "Error: connect ECONNREFUSED redis://***@10.0.0.5:6379",
    );
    expect(describeError(new Error("password authentication failed: postgres://app:s3cret@db/parley"))).toBe(
      "Error: password authentication failed: postgres://***@db/parley",
    );
    expect(describeError(new Error("rejected header Authorization: Bearer pk_abcDEF123-_xyz"))).toBe(
      "Error: rejected header Authorization: Bearer ***",
    );
    expect(describeError(new Error("bad key pk_abcDEF123-_xyz and whsec_QUJDRA== and sk-proj-123abc"))).toBe(
      "Error: bad key pk_*** and whsec_*** and sk-***",
    );
  });

  it("cuts long messages to 300 characters", () => {
    const line = describeError(new Error("x".repeat(1_000)));
    expect(line).toHaveLength(300);
    expect(line.endsWith("…")).toBe(true);
    // A cut never splits a surrogate pair.
    const emoji = describeError(new Error(`${"x".repeat(291)}${"😀".repeat(10)}`));
    expect(emoji.endsWith("\uD83D…")).toBe(false);
    expect(emoji.length).toBeLessThanOrEqual(300);
  });

  it("describes thrown values that are not errors", () => {
    expect(describeError("plain text\nsecond line")).toBe("Thrown string: plain text second line");
    expect(describeError(undefined)).toBe("Thrown undefined");
    expect(describeError(null)).toBe("Thrown null");
    expect(describeError({ password: "hunter2" })).toBe("Thrown object");
  });
});
