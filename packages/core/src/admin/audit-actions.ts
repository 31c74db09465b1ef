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
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const AUDIT_GROUPS = ["Keys", "Agents", "Knowledge", "Webhooks", "People", "Account", "Inbox"] as const;
export type AuditGroup = (typeof AUDIT_GROUPS)[number];

interface ActionDefinition {
  group: AuditGroup;
  /** The sentence, `{target}` standing for the target's label. */
  words: string;
}

export const AUDIT_ACTIONS = {
  "agent.key.generated": { group: "Keys", words: "Generated the HTTP API key of {target}" },
  "agent.key.rotated": { group: "Keys", words: "Rotated the HTTP API key of {target}" },
  "agent.key.revoked": { group: "Keys", words: "Revoked the HTTP API key of {target}" },
  "agent.created": { group: "Agents", words: "Created the agent {target}" },
  "agent.updated": { group: "Agents", words: "Changed the settings of {target}" },
  "agent.synonyms.updated": { group: "Agents", words: "Changed the synonyms of {target}" },
  "article.created": { group: "Knowledge", words: "Created the article {target}" },
  "article.updated": { group: "Knowledge", words: "Edited the article {target}" },
  "article.published": { group: "Knowledge", words: "Published the article {target}" },
  "article.unpublished": { group: "Knowledge", words: "Unpublished the article {target}" },
  "article.activated": { group: "Knowledge", words: "Activated the article {target}" },
  "article.deactivated": { group: "Knowledge", words: "Deactivated the article {target}" },
  "source.created": { group: "Knowledge", words: "Created the source {target}" },
  "source.updated": { group: "Knowledge", words: "Changed the source {target}" },
  "source.agents.linked": { group: "Knowledge", words: "Changed which agents use the source {target}" },
  "webhook.created": { group: "Webhooks", words: "Added the webhook endpoint {target}" },
  "webhook.updated": { group: "Webhooks", words: "Changed the webhook endpoint {target}" },
  "webhook.deleted": { group: "Webhooks", words: "Deleted the webhook endpoint {target}" },
  "webhook.enabled": { group: "Webhooks", words: "Enabled the webhook endpoint {target}" },
  "webhook.disabled": { group: "Webhooks", words: "Disabled the webhook endpoint {target}" },
  "webhook.secret.rolled": { group: "Webhooks", words: "Rolled the signing secret of {target}" },
  "person.invited": { group: "People", words: "Invited {target}" },
  "invitation.revoked": { group: "People", words: "Withdrew the invitation of {target}" },
  "person.role.changed": { group: "People", words: "Changed the role of {target}" },
  "person.deactivated": { group: "People", words: "Deactivated {target}" },
  "person.reactivated": { group: "People", words: "Reactivated {target}" },
  "account.password.changed": { group: "Account", words: "Changed their password" },
  "account.password.reset": { group: "Account", words: "Reset the password of {target} from the command line" },
  "account.session.ended": { group: "Account", words: "Ended one of their sessions" },
  "conversations.exported": { group: "Inbox", words: "Exported conversations" },
  "savedReply.created": { group: "Inbox", words: "Added the saved reply {target}" },
  "savedReply.updated": { group: "Inbox", words: "Changed the saved reply {target}" },
  "savedReply.deleted": { group: "Inbox", words: "Deleted the saved reply {target}" },
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
