// The send-message request body (spec 2.1 and 8), validated with zod. A failure is 400
// `Invalid request` whose `details` names the field and the rule, e.g. "message: must not be empty".
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import { charCount } from "../../platform/text.ts";
import {
  CLIENT_VARIABLE_VALUE_MAX_CHARS,
  CLIENT_VARIABLES_MAX_KEYS,
  MESSAGE_MAX_CHARS,
  VISITOR_EMAIL_MAX_CHARS,
  VISITOR_NAME_MAX_CHARS,
} from "../limits.ts";

/** International (E.164) phone number: a leading plus, then 7 to 15 digits, the first not 0. */
const PHONE_PATTERN = /^\+[1-9]\d{6,14}$/;

function typeError(expected: string) {
  return { error: (issue: { input: unknown }) => (issue.input === undefined ? "is required" : `must be ${expected}`) };
}

const maxChars = (limit: number) => (value: string) => charCount(value) <= limit;

// The `.meta()` calls describe the rules for the OpenAPI document (../../openapi/document.ts) in JSON Schema
// terms (lengths in code points, as JSON Schema counts them); they do not change what is accepted.
const messageField = z
  .string(typeError("a string"))
  .refine((value) => value.trim() !== "", "must not be empty")
  .refine(maxChars(MESSAGE_MAX_CHARS), `must be at most ${MESSAGE_MAX_CHARS} characters`)
  .meta({
    description: `The visitor's message: 1 to ${MESSAGE_MAX_CHARS} characters, not only whitespace.`,
    minLength: 1,
    maxLength: MESSAGE_MAX_CHARS,
    pattern: "\\S",
    examples: ["How do I reset my password?"],
  });

const visitorSchema = z.strictObject(
  {
    email: z
      .string(typeError("a string"))
      .max(VISITOR_EMAIL_MAX_CHARS, `must be at most ${VISITOR_EMAIL_MAX_CHARS} characters`)
      .pipe(z.email("must be an email address"))
      .meta({ format: "email", maxLength: VISITOR_EMAIL_MAX_CHARS, examples: ["ada@example.com"] })
      .optional(),
    name: z
      .string(typeError("a string"))
      .refine(maxChars(VISITOR_NAME_MAX_CHARS), `must be at most ${VISITOR_NAME_MAX_CHARS} characters`)
      .meta({ maxLength: VISITOR_NAME_MAX_CHARS, examples: ["Ada"] })
      .optional(),
    phone: z
      .string(typeError("a string"))
      .regex(PHONE_PATTERN, "must be in international format: + then 7 to 15 digits, e.g. +14155550100")
      .meta({ description: "International (E.164) format: + then 7 to 15 digits.", examples: ["+14155550100"] })
      .optional(),
  },
  typeError("an object"),
);

const clientVariablesSchema = z
  .record(
    z.string(),
    z
      .string(typeError("a string"))
      .refine(maxChars(CLIENT_VARIABLE_VALUE_MAX_CHARS), `must be at most ${CLIENT_VARIABLE_VALUE_MAX_CHARS} characters`)
      .meta({ maxLength: CLIENT_VARIABLE_VALUE_MAX_CHARS }),
    typeError("an object of strings"),
  )
  .refine((variables) => Object.keys(variables).length <= CLIENT_VARIABLES_MAX_KEYS, `must have at most ${CLIENT_VARIABLES_MAX_KEYS} keys`)
  .meta({
    description: `Your own context for the agent: at most ${CLIENT_VARIABLES_MAX_KEYS} keys, string values of at most ${CLIENT_VARIABLE_VALUE_MAX_CHARS} characters; merged into the conversation's variables.`,
    maxProperties: CLIENT_VARIABLES_MAX_KEYS,
    examples: [{ plan: "pro" }],
  });

export const messageRequestSchema = z.strictObject(
  {
    message: messageField,
    conversationId: z
      .string(typeError("a string"))
      .min(1, "must not be empty")
      .meta({ description: "The `conversationId` of an earlier turn, to continue that conversation." })
      .optional(),
    visitor: visitorSchema
      .meta({ description: "Who is writing; each field is optional and replaces the stored value when sent." })
      .optional(),
    clientVariables: clientVariablesSchema.optional(),
  },
  { error: () => "must be a JSON object" },
);

export type MessageRequest = z.infer<typeof messageRequestSchema>;
export type Visitor = NonNullable<MessageRequest["visitor"]>;

/** Validates a parsed JSON body; throws 400 with every problem named (field: rule; ...). */
export function parseMessageRequest(body: unknown): MessageRequest {
  const result = messageRequestSchema.safeParse(body);
  if (result.success) return result.data;
  throw invalidRequest(result.error.issues.map(describeIssue).join("; "));
}

export function invalidRequest(details: string): AppError {
  return new AppError("INVALID_REQUEST", { details });
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    const prefix = field ? `${field}.` : "";
    return issue.keys.map((key) => `${prefix}${key}: is not a known field`).join("; ");
  }
  return `${field || "body"}: ${issue.message}`;
}
