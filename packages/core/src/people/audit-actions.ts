// The audit log's vocabulary: every action it records, its group (the list's filter) and how a
// person reads it ("Rotated the HTTP API key of Acme Support"). One table, used by the recording
// functions, the list's filter and the panel's words.

export const AUDIT_TARGET_TYPES = [
  "agent",
  "article",
  "source",
  "webhook",
  "person",
  "invitation",
  "session",
  "conversations",
  "savedReply",
  "visitor",
  "knowledgeGap",
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** How the panel's filter names each kind of target. */
export const AUDIT_TARGET_LABELS: Record<AuditTargetType, string> = {
  agent: "Agents",
  article: "Articles",
  source: "Sources",
  webhook: "Webhook endpoints",
  person: "People",
  invitation: "Invitations",
  session: "Sessions",
  conversations: "Conversation exports",
  savedReply: "Saved replies",
  visitor: "Visitors' data",
  knowledgeGap: "Unanswered questions",
};

export const AUDIT_GROUPS = ["Keys", "Agents", "Knowledge", "Webhooks", "People", "Account", "Inbox", "Visitors' data"] as const;
export type AuditGroup = (typeof AUDIT_GROUPS)[number];

interface ActionDefinition {
  group: AuditGroup;
  /** The action's name in the panel's filter. */
  label: string;
  /** The sentence, `{target}` standing for the target's label. */
  words: string;
}

export const AUDIT_ACTIONS = {
  "agent.key.generated": { group: "Keys", label: "Key generated", words: "Generated the HTTP API key of {target}" },
  "agent.key.rotated": { group: "Keys", label: "Key rotated", words: "Rotated the HTTP API key of {target}" },
  "agent.key.revoked": { group: "Keys", label: "Key revoked", words: "Revoked the HTTP API key of {target}" },
  "agent.created": { group: "Agents", label: "Agent created", words: "Created the agent {target}" },
  "agent.updated": { group: "Agents", label: "Agent settings changed", words: "Changed the settings of {target}" },
  "agent.deleted": { group: "Agents", label: "Agent deleted", words: "Deleted the agent {target}" },
  "agent.synonyms.updated": { group: "Agents", label: "Synonyms changed", words: "Changed the synonyms of {target}" },
  "article.created": { group: "Knowledge", label: "Article created", words: "Created the article {target}" },
  "article.updated": { group: "Knowledge", label: "Article edited", words: "Edited the article {target}" },
  "article.published": { group: "Knowledge", label: "Article published", words: "Published the article {target}" },
  "article.unpublished": { group: "Knowledge", label: "Article unpublished", words: "Unpublished the article {target}" },
  "article.activated": { group: "Knowledge", label: "Article activated", words: "Activated the article {target}" },
  "article.deactivated": { group: "Knowledge", label: "Article deactivated", words: "Deactivated the article {target}" },
  "article.restored": {
    group: "Knowledge",
    label: "Article version restored",
    words: "Restored an earlier version of the article {target}",
  },
  "article.scheduled": { group: "Knowledge", label: "Publication scheduled", words: "Scheduled the publication of the article {target}" },
  "article.unscheduled": {
    group: "Knowledge",
    label: "Schedule cleared",
    words: "Cleared the scheduled publication of the article {target}",
  },
  "article.deleted": { group: "Knowledge", label: "Article deleted", words: "Deleted the article {target}" },
  "source.created": { group: "Knowledge", label: "Source created", words: "Created the source {target}" },
  "source.updated": { group: "Knowledge", label: "Source changed", words: "Changed the source {target}" },
  "source.agents.linked": { group: "Knowledge", label: "Source's agents changed", words: "Changed which agents use the source {target}" },
  "source.import.started": { group: "Knowledge", label: "Import started", words: "Started an import of articles into the source {target}" },
  "knowledgeGap.dismissed": {
    group: "Knowledge",
    label: "Unanswered questions dismissed",
    words: "Dismissed {target}",
  },
  "source.deleted": { group: "Knowledge", label: "Source deleted", words: "Deleted the source {target} with its articles" },
  "webhook.created": { group: "Webhooks", label: "Endpoint added", words: "Added the webhook endpoint {target}" },
  "webhook.updated": { group: "Webhooks", label: "Endpoint changed", words: "Changed the webhook endpoint {target}" },
  "webhook.deleted": { group: "Webhooks", label: "Endpoint deleted", words: "Deleted the webhook endpoint {target}" },
  "webhook.enabled": { group: "Webhooks", label: "Endpoint enabled", words: "Enabled the webhook endpoint {target}" },
  "webhook.disabled": { group: "Webhooks", label: "Endpoint disabled", words: "Disabled the webhook endpoint {target}" },
  "webhook.secret.rolled": { group: "Webhooks", label: "Signing secret rolled", words: "Rolled the signing secret of {target}" },
  "person.invited": { group: "People", label: "Person invited", words: "Invited {target}" },
  "invitation.revoked": { group: "People", label: "Invitation withdrawn", words: "Withdrew the invitation of {target}" },
  "person.role.changed": { group: "People", label: "Role changed", words: "Changed the role of {target}" },
  "person.deactivated": { group: "People", label: "Person deactivated", words: "Deactivated {target}" },
  "person.reactivated": { group: "People", label: "Person reactivated", words: "Reactivated {target}" },
  "account.password.changed": { group: "Account", label: "Password changed", words: "Changed their password" },
  "account.password.reset": {
    group: "Account",
    label: "Password reset (command line)",
    words: "Reset the password of {target} from the command line",
  },
  "account.session.ended": { group: "Account", label: "Session ended", words: "Ended one of their sessions" },
  "account.password.reset.requested": {
    group: "Account",
    label: "Password reset link sent",
    words: "Asked for a password reset link for {target}",
  },
  "account.password.reset.completed": {
    group: "Account",
    label: "Password reset by link",
    words: "Set a new password for {target} with a reset link",
  },
  "account.sessions.ended": { group: "Account", label: "Other sessions ended", words: "Signed out everywhere else" },
  "conversations.exported": { group: "Inbox", label: "Conversations exported", words: "Exported conversations" },
  "savedReply.created": { group: "Inbox", label: "Saved reply added", words: "Added the saved reply {target}" },
  "savedReply.updated": { group: "Inbox", label: "Saved reply changed", words: "Changed the saved reply {target}" },
  "savedReply.deleted": { group: "Inbox", label: "Saved reply deleted", words: "Deleted the saved reply {target}" },
  // A visitor's identity never goes into the log (an erasure would leave it behind): the target is
  // the conversation, or "a visitor by email address".
  "visitor.exported": { group: "Visitors' data", label: "Visitor's data exported", words: "Exported the data of {target}" },
  "visitor.erased": { group: "Visitors' data", label: "Visitor's data erased", words: "Erased the data of {target}" },
} as const satisfies Record<string, ActionDefinition>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];

/** The actions of a group, in table order. */
export function auditActionsOf(group: AuditGroup): AuditAction[] {
  return AUDIT_ACTION_NAMES.filter((action) => AUDIT_ACTIONS[action].group === group);
}

/** The event in words; an action no longer in the table reads as its name. */
export function describeAuditEvent(action: string, targetLabel: string): string {
  const definition = (AUDIT_ACTIONS as Record<string, ActionDefinition>)[action];
  return definition ? definition.words.replace("{target}", targetLabel) : `${action}: ${targetLabel}`;
}
