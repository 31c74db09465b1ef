// The 200 body of send-message (spec 2.2) as a zod schema, for the OpenAPI document
// (../../openapi/document.ts) and the typed client's checks. The engine and the turn build plain
// objects typed by ../../engine/types.ts and ./turn.ts; test/openapi.test.ts asserts that these
// schemas infer exactly those types, so neither can change without the other.
import { z } from "zod";
import { richContentItemSchema, toolCallSchema } from "../../platform/reply-content.ts";

export const messageResponseSchema = z
  .object({
    conversationId: z.string().meta({ description: "Store it and send it back to continue this conversation." }),
    reply: z.string().meta({
      description:
        "The agent's answer text, as Markdown (GitHub-flavoured): an answer quoted from an article keeps its paragraphs and its numbered and bulleted lists, one item a line; it holds no HTML (article text that Markdown would read as markup is escaped with a backslash). Render it as Markdown, or show it as text with its line breaks.",
    }),
    tokenUsage: z.int().min(0).meta({ description: "Tokens this turn consumed (counted against the monthly token quota)." }),
    toolCalls: z.array(toolCallSchema),
    richContent: z.array(richContentItemSchema).meta({ description: "May be empty." }),
    handoffRequested: z.boolean().meta({ description: "True when this turn asked for a person; the conversation is then `escalated`." }),
    status: z.enum(["active", "escalated"]).meta({
      description: "`escalated` once a person was asked for; later messages are stored for them until an admin hands it back.",
    }),
  })
  .meta({ id: "MessageResponse" });
