// The 200 body of send-message (spec 2.2) as a zod schema, for the OpenAPI document (../openapi.ts)
// and the typed client's checks. The engine and the turn build plain objects typed by
// ../engine/types.ts and ./turn.ts; test/openapi.test.ts asserts that these schemas infer exactly
// those types, so neither can change without the other. The item schemas are strict: the webhook
// payloads (../webhooks/schemas.ts) reuse them, and a strict object documents the same in requests
// and responses (one component each in the OpenAPI document).
import { z } from "zod";

export const toolCallSchema = z
  .strictObject({
    name: z.string().meta({ examples: ["search_knowledge_base"] }),
    args: z.record(z.string(), z.unknown()).meta({ description: "The tool's arguments.", examples: [{ query: "refund" }] }),
  })
  .meta({ id: "ToolCall", description: "A tool the agent ran in this turn." });

export const articlesContentSchema = z
  .strictObject({
    type: z.literal("articles"),
    articles: z.array(
      z.strictObject({
        id: z.string().meta({ examples: ["art-refunds"] }),
        title: z.string(),
        url: z.url().meta({ description: "The article's page in the public help centre." }),
      }),
    ),
  })
  .meta({ id: "ArticlesContent", description: "Help-centre articles the answer came from, or related to the question." });

export const buttonsContentSchema = z
  .strictObject({
    type: z.literal("buttons"),
    buttons: z.array(
      z.strictObject({
        label: z.string().meta({ examples: ["Talk to a person"] }),
        action: z.enum(["handoff", "url", "message"]).meta({
          description: "`handoff`: ask for a person; `url`: open `value`; `message`: send `value` as the visitor's next message.",
        }),
        value: z.string().optional(),
      }),
    ),
  })
  .meta({ id: "ButtonsContent", description: "Buttons to offer the visitor." });

export const richContentItemSchema = z
  .discriminatedUnion("type", [articlesContentSchema, buttonsContentSchema])
  .meta({ id: "RichContentItem", description: "A structured content item; switch on `type` and ignore types you do not know." });

export const messageResponseSchema = z
  .object({
    conversationId: z.string().meta({ description: "Store it and send it back to continue this conversation." }),
    reply: z.string().meta({ description: "The agent's answer." }),
    tokenUsage: z.int().min(0).meta({ description: "Tokens this turn consumed (counted against the monthly token quota)." }),
    toolCalls: z.array(toolCallSchema),
    richContent: z.array(richContentItemSchema).meta({ description: "May be empty." }),
    handoffRequested: z.boolean().meta({ description: "True when this turn asked for a person; the conversation is then `escalated`." }),
    status: z.enum(["active", "escalated"]).meta({
      description: "`escalated` once a person was asked for; later messages are stored for them until an admin hands it back.",
    }),
  })
  .meta({ id: "MessageResponse" });
