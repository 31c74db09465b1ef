// The limits of an agent's settings: names, instructions, origins, synonyms, the widget's limits
// (bounds and defaults), retention, branding. The voice settings are in voice-settings.ts.
// Plain constants with no imports but other limits files, so that the panel's client components may import them.

/** Control panel: lengths of names (agents, sources) and agent instructions. */
export const NAME_MAX_CHARS = 100;
export const AGENT_INSTRUCTIONS_MAX_CHARS = 10_000;
export const AGENT_ALLOWED_ORIGINS_MAX = 50;
/** An agent's own synonym groups for the knowledge search: one group a line, phrases separated by commas. */
export const KNOWLEDGE_SYNONYMS_MAX_CHARS = 20_000;
export const KNOWLEDGE_SYNONYM_GROUPS_MAX = 500;

// The widget's own limits (the HTTP API's per-agent limit is the HTTP API's alone). Each is set per
// agent in the panel, within these bounds; an agent without a setting has the default.
/** Concurrent widget connections per client IP and agent; one more is closed with 4429. */
export const WIDGET_CONNECTIONS_PER_IP = { default: 20, min: 1, max: 1_000 } as const;
/** Widget messages per connection per minute (a person types far slower). */
export const WIDGET_MESSAGES_PER_CONNECTION_PER_MINUTE = { default: 10, min: 1, max: 600 } as const;
/** Widget messages per client IP and agent per minute (several visitors behind one NAT). */
export const WIDGET_MESSAGES_PER_IP_PER_MINUTE = { default: 30, min: 1, max: 10_000 } as const;
/** New widget conversations per client IP and agent per hour. */
export const WIDGET_CONVERSATIONS_PER_IP_PER_HOUR = { default: 20, min: 1, max: 10_000 } as const;
/** The agent settings (Agent columns) of the four limits above. */
export const WIDGET_LIMIT_SETTINGS = {
  widgetConnectionsPerIp: WIDGET_CONNECTIONS_PER_IP,
  widgetMessagesPerConnectionPerMinute: WIDGET_MESSAGES_PER_CONNECTION_PER_MINUTE,
  widgetMessagesPerIpPerMinute: WIDGET_MESSAGES_PER_IP_PER_MINUTE,
  widgetConversationsPerIpPerHour: WIDGET_CONVERSATIONS_PER_IP_PER_HOUR,
} as const;
/** An agent's retention setting: erase conversations inactive for this many days (bounds). */
export const RETENTION_DAYS_MIN = 1;
export const RETENTION_DAYS_MAX = 3650;
/** Branding of an agent's help centre and widget (branding.ts). */
export const BRANDING_NAME_MAX_CHARS = 60;
export const BRANDING_URL_MAX_CHARS = 500;
export const BRANDING_FOOTER_LABEL_MAX_CHARS = 40;
export const WIDGET_GREETING_MAX_CHARS = 500;
/** Suggested questions or articles the widget shows when it opens. */
export const WIDGET_SUGGESTIONS_MAX = 5;
export const WIDGET_SUGGESTION_MAX_CHARS = 120;
