// The panel's forms show these texts next to a refused field: written for people, never zod's own.

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldMessage } from "../src/platform/index.ts";

function messages(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  if (result.success) throw new Error("expected a refusal");
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join("."), fieldMessage(issue)]));
}

describe("field messages", () => {
  it("says what to do about an empty, short or long text, a list and a number", () => {
    const schema = z.object({
      title: z.string().trim().min(1),
      name: z.string().min(3),
      note: z.string().max(5),
      events: z.array(z.string()).min(1),
      limit: z.number().int().min(1).max(10),
      count: z.number().int(),
    });
    expect(messages(schema, { title: "", name: "ab", note: "too long", events: [], limit: 0, count: 1.5 })).toEqual({
      title: "Fill this in: it can't be empty.",
      name: "Use at least 3 characters.",
      note: "Use at most 5 characters.",
      events: "Choose at least one.",
      limit: "Enter 1 or more.",
      count: "Enter a whole number.",
    });
    expect(messages(z.object({ limit: z.number().max(10) }), { limit: 11 })).toEqual({ limit: "Enter 10 or less." });
  });

  it("explains a missing field, an email address, a URL and a choice", () => {
    const schema = z.object({ title: z.string(), email: z.email(), url: z.url(), engine: z.enum(["knowledge", "llm"]) });
    expect(messages(schema, { email: "nope", url: "nope", engine: "other" })).toEqual({
      title: "Fill this in.",
      email: "Enter an email address, like name@example.com.",
      url: "Enter a full address, starting with https://.",
      engine: "Choose one of the options.",
    });
  });

  it("keeps a message the schema wrote on purpose", () => {
    const schema = z.object({
      id: z
        .string()
        .min(2, "Use at least 2 letters for the ID.")
        .refine((value) => value !== "new", "“new” is reserved."),
    });
    expect(messages(schema, { id: "a" })).toEqual({ id: "Use at least 2 letters for the ID." });
    expect(messages(schema, { id: "new" })).toEqual({ id: "“new” is reserved." });
  });
});
