// The wire contract of the control panel's API: what each procedure returns, declared once.
// Every procedure passes its result through one of these (`.output(...)`), and zod objects drop
// any key they do not name, so a field added to a core query (a key hash, a webhook secret) never
// reaches the panel unless it is declared here. The only secrets declared are the ones shown once
// on purpose: a generated agent key and a new webhook signing secret.
import { z } from "zod";

const id = z.string();
const moment = z.date();
const count = z.number().int();
/** A monthly limit or a widget setting; null means unlimited (or the default). */
const optionalLimit = z.number().int().nullable();
/** A page of a list, with the cursor of the next page (null on the last page). */
const page = <Item extends z.ZodType>(item: Item) => z.object({ items: z.array(item), nextCursor: id.nullable() });

// ---------------------------------------------------------------------------------------------
// Agents and their HTTP API key

export const agentSummaryOutput = z.object({
  id,
  name: z.string(),
  active: z.boolean(),
  httpApiEnabled: z.boolean(),
  engine: z.enum(["knowledge", "llm"]),
  keyConfigured: z.boolean(),
  keyLast4: z.string().nullable(),
  keyCreatedAt: moment.nullable(),
  createdAt: moment,
});

export const agentListOutput = z.array(agentSummaryOutput);

export const agentKnowledgeSearchOutput = z.object({
  search: z.enum(["in-process", "database"]),
  textBytes: z.number().int().nonnegative(),
  budgetBytes: z.number().int().positive(),
});

export const agentDetailOutput = z.object({
  ...agentSummaryOutput.shape,
  updatedAt: moment,
  monthlyConversationLimit: optionalLimit,
  monthlyTokenLimit: optionalLimit,
  usageLimit: optionalLimit,
  instructions: z.string(),
  answerBeyondArticles: z.boolean(),
  knowledgeSynonyms: z.string(),
  allowedOrigins: z.array(z.string()),
  widgetConnectionsPerIp: optionalLimit,
  widgetMessagesPerConnectionPerMinute: optionalLimit,
  widgetMessagesPerIpPerMinute: optionalLimit,
  widgetConversationsPerIpPerHour: optionalLimit,
  widgetMonthlyConversationLimit: optionalLimit,
  widgetMonthlyTokenLimit: optionalLimit,
  /** Conversations are erased after this many days; null keeps them. */
  retentionDays: optionalLimit,
  /** Voice over the widget and SDK socket; a null voice name is the engine's default. */
  voiceEnabled: z.boolean(),
  voiceName: z.string().nullable(),
  voiceLanguage: z.string(),
  /** Minutes of visitor audio a month; null: unlimited. */
  monthlyVoiceMinutesLimit: optionalLimit,
  voiceSessionsPerIp: optionalLimit,
  voiceMinutesPerSession: optionalLimit,
  sourceIds: z.array(id),
  branding: z.object({
    helpName: z.string(),
    logoUrl: z.string(),
    accentColor: z.string(),
    footerLink: z.object({ label: z.string(), url: z.string() }).nullable(),
    widgetTitle: z.string(),
    widgetGreeting: z.string(),
    widgetAccentColor: z.string(),
    suggestions: z.array(z.object({ text: z.string(), articleId: z.string().nullable() })),
  }),
  /** The help centre's public name: the one set, else the default built from the workspace's name. */
  helpCentreName: z.string(),
});

/** What voice this server offers: recognition's engine (null: visitors cannot talk), synthesis and its voices. */
export const voiceAvailabilityOutput = z.object({
  recognition: z.string().nullable(),
  synthesis: z.string(),
  voices: z.array(z.string()),
});

export const testChatOutput = z.object({
  conversationId: id,
  reply: z.string(),
  html: z.string(),
  articles: z.array(z.object({ id: z.string(), title: z.string(), url: z.string() })),
  handoffRequested: z.boolean(),
  status: z.enum(["active", "escalated"]),
});

/** The one time an agent key is shown: the key itself, then only its last 4 characters. */
export const issuedAgentKeyOutput = z.object({
  key: z.string(),
  last4: z.string(),
  /** ISO 8601. */
  createdAt: z.string(),
});

export const revokedAgentKeyOutput = z.object({ revoked: z.boolean() });

// ---------------------------------------------------------------------------------------------
// Knowledge: sources and articles

/** An article of a translation group, as the editor names it. */
const translatedArticle = z.object({ id, title: z.string(), language: z.string().nullable() });

export const articleSummaryOutput = z.object({
  id,
  sourceId: id,
  title: z.string(),
  slug: z.string(),
  /** Null: detected from the text. */
  language: z.string().nullable(),
  /** The original this article translates; null: an original. */
  translationOfId: id.nullable(),
  published: z.boolean(),
  active: z.boolean(),
  updatedAt: moment,
  sourceName: z.string(),
});

/** The list adds visitors' "Was this helpful?" score: helpful votes of all votes. */
export const articleListOutput = z.array(articleSummaryOutput.extend({ helpful: count, votes: count }));

export const articleDetailOutput = z.object({
  ...articleSummaryOutput.shape,
  content: z.string(),
  /** The language detected from the text when it was last saved; null: not detected yet. */
  detectedLanguage: z.string().nullable(),
  createdAt: moment,
  publishedAt: moment.nullable(),
  /** A scheduled publication not yet made. */
  publishAt: moment.nullable(),
  agentIds: z.array(id),
  translationOf: translatedArticle.nullable(),
  /** The articles that translate this one (an original's). */
  translations: z.array(translatedArticle),
});

/** The editor's "Translation of" choices: the workspace's originals. */
export const translationOriginalsOutput = z.array(translatedArticle.extend({ sourceName: z.string() }));

export const articleRevisionsOutput = z.array(
  z.object({ id, title: z.string(), published: z.boolean(), createdAt: moment, authorName: z.string().nullable() }),
);

const diffParts = z.array(z.object({ change: z.enum(["added", "removed", "same"]), text: z.string() }));

export const articleRevisionDiffOutput = z.object({
  revisionId: id,
  articleId: id,
  createdAt: moment,
  title: diffParts,
  content: diffParts,
  differs: z.boolean(),
});

export const articleRestoredOutput = z.object({ articleId: id });
export const articleScheduleOutput = z.object({ publishAt: moment.nullable() });

export const knowledgeGapsOutput = z.array(
  z.object({
    wording: z.string(),
    question: z.string(),
    last7Days: count,
    last30Days: count,
    lastAskedAt: moment,
    kinds: z.object({ unanswered: count, handoff: count, not_helpful: count, no_search_result: count }),
  }),
);

export const articlePreviewOutput = z.object({ html: z.string() });

export const importJobOutput = z.object({
  id,
  sourceId: id,
  kind: z.enum(["markdown_zip", "urls", "zendesk", "intercom"]),
  status: z.enum(["queued", "running", "done", "failed"]),
  total: count,
  processed: count,
  created: count,
  updated: count,
  skipped: count,
  failed: count,
  error: z.string().nullable(),
  createdAt: moment,
  startedAt: moment.nullable(),
  finishedAt: moment.nullable(),
});

export const importJobDetailOutput = importJobOutput.extend({
  report: z.array(
    z.object({
      item: z.string(),
      outcome: z.enum(["created", "updated", "skipped", "failed"]),
      reason: z.string().optional(),
      articleId: z.string().optional(),
    }),
  ),
});

// ---------------------------------------------------------------------------------------------
// Conversations and usage

const conversationStatus = z.enum(["active", "escalated", "resolved"]);

export const teamMemberOutput = z.object({ id, name: z.string() });
export const teamMembersOutput = z.array(teamMemberOutput.extend({ email: z.string() }));

export const conversationOutput = z.object({
  id,
  agentId: id,
  agentName: z.string(),
  status: conversationStatus,
  channel: z.enum(["api", "widget"]),
  visitorName: z.string().nullable(),
  visitorEmail: z.string().nullable(),
  visitorPhone: z.string().nullable(),
  /** Widget: the page the conversation started on. */
  firstPageUrl: z.string().nullable(),
  messageCount: count,
  assignee: teamMemberOutput.nullable(),
  /** When it last became escalated (waiting time); null when never. */
  escalatedAt: moment.nullable(),
  resolvedAt: moment.nullable(),
  /** When the visitor's data was erased; null when it was not. */
  erasedAt: moment.nullable(),
  createdAt: moment,
  updatedAt: moment,
});

const messageRole = z.enum(["user", "agent", "human"]);
const messagePreview = z.object({ role: messageRole, text: z.string(), createdAt: moment });

export const conversationListOutput = page(
  z.object({
    ...conversationOutput.shape,
    lastMessage: messagePreview.nullable(),
    /** The visitor's own last message (what they asked), for the list's preview. */
    lastVisitorMessage: messagePreview.nullable(),
  }),
);

export const okOutput = z.object({ ok: z.literal(true) });

export const waitingEscalationsOutput = z.object({ count, oldestEscalatedAt: moment.nullable() });

export const conversationMessageOutput = z.object({
  id,
  role: messageRole,
  text: z.string(),
  /** Agent and team replies as sanitised HTML; null for the visitor's own text. */
  html: z.string().nullable(),
  tokens: count,
  toolCalls: z.array(z.object({ name: z.string(), args: z.record(z.string(), z.unknown()) })),
  richContent: z.array(z.unknown()),
  sequence: count,
  /** Spoken: the visitor's transcript, or a reply read aloud. */
  voice: z.boolean(),
  /** A spoken reply the visitor cut short: the text is what was played. */
  interrupted: z.boolean(),
  createdAt: moment,
});

/** An internal note: the team's only, never sent to the visitor. */
export const conversationNoteOutput = z.object({ id, text: z.string(), authorName: z.string().nullable(), createdAt: moment });

export const savedReplyOutput = z.object({ id, title: z.string(), text: z.string(), updatedAt: moment });

export const conversationDetailOutput = z.object({
  ...conversationOutput.shape,
  clientVariables: z.record(z.string(), z.string()),
  pageVariables: z.record(z.string(), z.string()),
  messages: z.array(conversationMessageOutput),
  notes: z.array(conversationNoteOutput),
  trackingEvents: z.array(z.object({ id, event: z.string(), properties: z.record(z.string(), z.unknown()), createdAt: moment })),
  /** The inbox timeline: taken over, handed back, assigned, resolved... with who and when. */
  activity: z.array(
    z.object({
      id,
      kind: z.enum(["taken_over", "handed_back", "assigned", "unassigned", "resolved", "reopened", "escalated"]),
      actorName: z.string().nullable(),
      assigneeName: z.string().nullable(),
      createdAt: moment,
    }),
  ),
});

const dayCounts = z.object({ conversations: count, turns: count });

export const panelHomeOutput = z.object({
  waiting: z.object({
    count,
    oldest: z.array(
      z.object({
        conversationId: id,
        agentName: z.string(),
        visitorName: z.string().nullable(),
        visitorEmail: z.string().nullable(),
        firstPageUrl: z.string().nullable(),
        escalatedAt: moment,
      }),
    ),
  }),
  activity: z.array(z.object({ agentId: id, agentName: z.string(), today: dayCounts, week: dayCounts, unanswered: count })),
  unansweredThisWeek: count,
  nearQuota: z.array(
    z.object({
      agentId: id,
      agentName: z.string(),
      measure: z.enum(["conversations", "tokens", "turns"]),
      used: count,
      limit: count,
    }),
  ),
  month: z.string(),
  gettingStarted: z.object({
    keyGenerated: z.boolean(),
    articlePublished: z.boolean(),
    widgetEmbedded: z.boolean(),
    webhookAdded: z.boolean(),
  }),
});

export const usageSummaryOutput = z.array(
  z.object({
    agentId: id,
    agentName: z.string(),
    /** "YYYY-MM" (UTC). */
    month: z.string(),
    conversations: count,
    tokens: count,
    turns: count,
    monthlyConversationLimit: optionalLimit,
    monthlyTokenLimit: optionalLimit,
    usageLimit: optionalLimit,
    /** Voice: on for the agent, minutes heard this month (seconds rounded up), the monthly limit. */
    voiceEnabled: z.boolean(),
    voiceMinutes: count,
    monthlyVoiceMinutesLimit: optionalLimit,
  }),
);

export const dailyUsageOutput = z.array(
  z.object({
    /** "YYYY-MM-DD" (UTC). */
    date: z.string(),
    conversations: count,
    tokens: count,
  }),
);

// ---------------------------------------------------------------------------------------------
// Webhooks

export const webhookEndpointOutput = z.object({
  id,
  url: z.string(),
  description: z.string(),
  allAgents: z.boolean(),
  agentIds: z.array(id),
  eventTypes: z.array(z.string()),
  enabled: z.boolean(),
  disabledReason: z.enum(["gone", "failing"]).nullable(),
  disabledAt: moment.nullable(),
  failingSince: moment.nullable(),
  /** While a roll is in progress: when the previous secret stops signing (a time, not the secret). */
  previousSecretValidUntil: moment.nullable(),
  createdAt: moment,
  updatedAt: moment,
});

export const webhookEndpointListOutput = z.array(webhookEndpointOutput);

/** The one time a signing secret is shown: on create and on roll. */
export const webhookEndpointWithSecretOutput = z.object({ endpoint: webhookEndpointOutput, secret: z.string() });

export const deletedWebhookEndpointOutput = z.object({ id });

export const webhookDeliveryOutput = z.object({
  id,
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(["pending", "succeeded", "failed"]),
  attempts: count,
  inProgress: z.boolean(),
  nextAttemptAt: moment.nullable(),
  lastAttemptAt: moment.nullable(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastLatencyMs: z.number().int().nullable(),
  deliveredAt: moment.nullable(),
  createdAt: moment,
});

export const webhookDeliveryListOutput = page(webhookDeliveryOutput);

export const webhookDeliveryDetailOutput = z.object({
  ...webhookDeliveryOutput.shape,
  endpointId: id,
  /** The event body as sent (JSON text). */
  payload: z.string(),
  attemptLog: z.array(
    z.object({
      number: count,
      startedAt: moment,
      status: z.number().int().nullable(),
      error: z.string().nullable(),
      latencyMs: z.number().int(),
      responseBody: z.string().nullable(),
    }),
  ),
});

// ---------------------------------------------------------------------------------------------
// People and one's own account

const role = z.enum(["owner", "admin", "editor", "support"]);

export const personOutput = z.object({ id, email: z.string(), name: z.string(), role, active: z.boolean(), createdAt: moment });

export const peopleOutput = z.object({
  people: z.array(personOutput),
  invitations: z.array(z.object({ id, email: z.string(), role, createdAt: moment, expiresAt: moment })),
});

/** The invitation link: shown once (only its hash is stored); whether it also went out by email. */
export const createdInvitationOutput = z.object({
  id,
  email: z.string(),
  role,
  link: z.string(),
  expiresAt: moment,
  emailed: z.enum(["sent", "failed", "off"]),
});

export const revokedInvitationOutput = z.object({ revoked: z.boolean() });

export const accountOutput = z.object({ id, email: z.string(), name: z.string(), role });

export const ownSessionsOutput = z.array(
  z.object({
    id,
    createdAt: moment,
    lastSeenAt: moment,
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    current: z.boolean(),
  }),
);

export const passwordChangedOutput = z.object({ endedSessions: count });
export const endedSessionOutput = z.object({ ended: z.boolean() });

// ---------------------------------------------------------------------------------------------
// The audit log (read only)

const auditDetailValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]);

export const auditEventOutput = z.object({
  id,
  createdAt: moment,
  actorUserId: id.nullable(),
  actorEmail: z.string(),
  action: z.string(),
  group: z.string().nullable(),
  summary: z.string(),
  targetType: z.string(),
  targetId: id,
  targetLabel: z.string(),
  detail: z.record(z.string(), auditDetailValue),
  ip: z.string(),
  userAgent: z.string(),
});

export const auditPageOutput = page(auditEventOutput);

export const auditActorsOutput = z.array(z.object({ userId: id, email: z.string() }));
// The visitor's data and deletions

export const erasedVisitorOutput = z.object({ conversations: count });
export const deletedAgentOutput = z.object({ conversations: count });
