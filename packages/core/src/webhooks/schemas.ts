// The webhook payloads as zod schemas: what every event body is, exactly (strict objects), for the
// OpenAPI document's `webhooks` section and the tests, which validate every recorded
// event against them, so the documentation cannot drift from what is sent.
import { z } from "zod";
import { richContentItemSchema, toolCallSchema } from "../platform/reply-content.ts";
import { WEBHOOK_TEST_EVENT_TYPE, type WebhookEventType } from "./types.ts";

const isoTimestamp = z.iso.datetime().meta({ description: "ISO 8601, UTC.", examples: ["2026-11-20T12:00:00.000Z"] });

export const webhookVisitorSchema = z.strictObject({
  name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
});

export const webhookConversationSchema = z
  .strictObject({
    id: z.string().meta({ examples: ["cmi0x2l5k0001"] }),
    agentId: z.string().meta({ examples: ["demo"] }),
    channel: z.enum(["api", "widget"]).meta({ description: "Where the conversation started." }),
    status: z.enum(["active", "escalated"]).meta({ description: "The status after the change." }),
    visitor: webhookVisitorSchema,
  })
  .meta({ id: "WebhookConversation", description: "The conversation an event is about." });

export const webhookTeamMemberSchema = z
  .strictObject({
    id: z.string().meta({ examples: ["cmi0x2l5k0009"] }),
    name: z.string().meta({ description: "The team member's display name (their email when no name is set)." }),
  })
  .meta({ id: "WebhookTeamMember" });

export const webhookMessageSchema = z
  .strictObject({
    role: z.enum(["user", "agent", "human"]).meta({ description: "`user`: the visitor; `agent`: the agent's reply; `human`: an admin." }),
    text: z.string(),
    sequence: z.int().min(0).meta({ description: "Position in the conversation, from 0, without gaps." }),
    createdAt: isoTimestamp,
    tokenUsage: z.int().min(0).optional().meta({ description: "Agent replies only: the turn's token usage." }),
    toolCalls: z.array(toolCallSchema).optional().meta({ description: "Agent replies only: as `toolCalls` of the messages API." }),
    richContent: z
      .array(richContentItemSchema)
      .optional()
      .meta({ description: "Agent replies only: as `richContent` of the messages API." }),
  })
  .meta({ id: "WebhookMessage" });

export const webhookArticleSchema = z
  .strictObject({
    id: z.string().meta({ examples: ["art-refunds"] }),
    sourceId: z.string().meta({ examples: ["src-billing"] }),
    title: z.string(),
    published: z.boolean(),
    publishedAt: isoTimestamp.nullable(),
    agentIds: z.array(z.string()).meta({ description: "The agents whose help centre shows the article's source." }),
  })
  .meta({ id: "WebhookArticle" });

const webhookRatingSchema = z.enum(["good", "okay", "bad"]);

function envelope<T extends string, D extends z.ZodType>(type: T, data: D, description: string) {
  return z
    .strictObject({
      type: z.literal(type),
      timestamp: isoTimestamp.meta({ description: "When the change happened." }),
      data,
    })
    .meta({ description });
}

export const WEBHOOK_PAYLOAD_SCHEMAS = {
  "conversation.created": envelope(
    "conversation.created",
    z.strictObject({
      conversation: webhookConversationSchema.extend({ clientVariables: z.record(z.string(), z.string()), createdAt: isoTimestamp }),
    }),
    "A conversation of the widget or JS SDK started.",
  ),
  "conversation.message": envelope(
    "conversation.message",
    z.strictObject({
      conversation: webhookConversationSchema,
      messages: z.array(webhookMessageSchema).min(1),
      handoffRequested: z.boolean().optional().meta({ description: "Turns only: the turn asked for a person." }),
      channel: z
        .enum(["widget", "voice"])
        .optional()
        .meta({ description: "Turns only: how the visitor sent their message: typed in the widget or SDK, or spoken (voice)." }),
    }),
    "A widget/SDK turn (the visitor's message and the agent's reply), or a message an admin wrote.",
  ),
  "conversation.escalated": envelope(
    "conversation.escalated",
    z.strictObject({ conversation: webhookConversationSchema, reason: z.literal("handoff_requested") }),
    "A widget/SDK turn asked for a person.",
  ),
  "conversation.status_changed": envelope(
    "conversation.status_changed",
    z.strictObject({
      conversation: webhookConversationSchema,
      previousStatus: z.enum(["active", "escalated"]),
      status: z.enum(["active", "escalated"]),
      changedBy: z.enum(["turn", "admin"]),
    }),
    "A conversation's status changed.",
  ),
  "conversation.assigned": envelope(
    "conversation.assigned",
    z.strictObject({
      conversation: webhookConversationSchema,
      assignee: webhookTeamMemberSchema.nullable().meta({ description: "The team member it is assigned to now; null: unassigned." }),
      assignedBy: webhookTeamMemberSchema.nullable().meta({ description: "Who made the change; null if their account is gone." }),
    }),
    "A conversation was assigned to a team member, or unassigned.",
  ),
  "conversation.resolved": envelope(
    "conversation.resolved",
    z.strictObject({
      conversation: webhookConversationSchema,
      resolvedBy: webhookTeamMemberSchema.nullable().meta({ description: "Who resolved it; null if their account is gone." }),
    }),
    "A team member resolved the conversation. On the wire its status stays `active`: the agent answers the visitor's next message, which reopens it.",
  ),
  "conversation.rated": envelope(
    "conversation.rated",
    z.strictObject({
      conversation: webhookConversationSchema,
      rating: webhookRatingSchema.meta({ description: "How it went, as the visitor rated it in the widget." }),
      previousRating: webhookRatingSchema
        .nullable()
        .meta({ description: "The rating this one replaces (the visitor changed their mind); null: the first rating of this resolution." }),
      comment: z.string().nullable().meta({ description: "The visitor's words, if they wrote any." }),
      ratedAt: isoTimestamp.meta({ description: "When the visitor first rated this resolution (a change keeps it)." }),
    }),
    "The visitor rated the conversation a team member resolved, in the widget, or changed their rating. On the wire its status stays `active`.",
  ),
  "help.article.published": envelope(
    "help.article.published",
    z.strictObject({ article: webhookArticleSchema }),
    "An article was published.",
  ),
  "help.article.unpublished": envelope(
    "help.article.unpublished",
    z.strictObject({ article: webhookArticleSchema }),
    "An article was unpublished.",
  ),
} satisfies Record<WebhookEventType, z.ZodType>;

export const webhookTestPayloadSchema = envelope(
  WEBHOOK_TEST_EVENT_TYPE,
  z.strictObject({ endpointId: z.string(), message: z.string() }),
  'Sent by the panel\'s "Send test event" only.',
);

/** The Standard Webhooks request headers of every delivery. */
export const WEBHOOK_HEADERS = {
  "webhook-id": "The event's id (`evt_...`), the same on every retry: dedupe by it.",
  "webhook-timestamp": "Seconds since the Unix epoch of this attempt.",
  "webhook-signature":
    "`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded secret after `whsec_`; two space-separated signatures during a secret roll.",
} as const;
