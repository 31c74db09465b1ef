// What a reply carries besides its text, as zod schemas for the public document: tool calls and
// rich content items. Strict objects: the messages API's response and the webhook payloads
// (webhooks/schemas.ts) reuse them, and a strict object documents the same in requests and
// responses (one component each in the OpenAPI document).
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
