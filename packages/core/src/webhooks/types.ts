// The webhook event types, in one dependency-free module (the panel's client code imports it too).

export const WEBHOOK_EVENT_TYPES = [
  "conversation.created",
  "conversation.message",
  "conversation.escalated",
  "conversation.status_changed",
  "conversation.assigned",
  "conversation.resolved",
  "conversation.rated",
  "help.article.published",
  "help.article.unpublished",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent only by the panel's "Send test event", to one endpoint, whatever its event types. */
export const WEBHOOK_TEST_EVENT_TYPE = "webhook.test";

export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  "conversation.created": "A conversation started (widget or SDK).",
  "conversation.message": "A turn (the visitor's message and the agent's reply), or a message an admin wrote.",
  "conversation.escalated": "A turn asked for a person.",
  "conversation.status_changed": "A conversation's status changed (a turn escalated it, or an admin changed it).",
  "conversation.assigned": "A conversation was assigned to a team member, or unassigned (taking it over assigns it).",
  "conversation.resolved": "A team member resolved a conversation (the visitor's next message reopens it).",
  "conversation.rated": "The visitor rated a resolved conversation (good, okay or bad), or changed their rating.",
  "help.article.published": "An article was published.",
  "help.article.unpublished": "An article was unpublished.",
};

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}
