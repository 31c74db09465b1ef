// Who the visitor is, as the panel names them (inbox rows, the conversation, alerts, the browser tab):
// their name, else their email, else "Visitor #K3Z9" with the page a widget conversation started on
// (host and path) or "Anonymous visitor #K3Z9". The tag tells apart two visitors on one page.
// Pure: the panel's browser code imports it through @parley/core/browser.
export interface VisitorIdentityFields {
  /** The conversation's id, which the tag is made from. */
  id: string;
  visitorName?: string | null;
  visitorEmail?: string | null;
  firstPageUrl?: string | null;
}

export function visitorIdentity(conversation: VisitorIdentityFields): string {
  if (conversation.visitorName) return conversation.visitorName;
  if (conversation.visitorEmail) return conversation.visitorEmail;
  const tag = visitorTag(conversation.id);
  const page = pageLabel(conversation.firstPageUrl);
  return page ? `Visitor ${tag} on ${page}` : `Anonymous visitor ${tag}`;
}

/** How many of the id's last characters make the tag (the index Conversation_tag_idx is on as many). */
export const TAG_LENGTH = 4;

/**
 * "#K3Z9": the last four characters of the conversation's id (a cuid's random end), in capitals,
 * the same wherever the panel shows that conversation, so a team can say "the #K3Z9 visitor" and
 * find it by that in the inbox search (tagInQuery).
 */
export function visitorTag(conversationId: string): string {
  return `#${conversationId.slice(-TAG_LENGTH).toUpperCase()}`;
}

/** The id ending a search for a tag names ("#K3Z9" or "k3z9": "k3z9", as ids are written), else null. */
export function tagInQuery(query: string): string | null {
  const match = new RegExp(`^#?([0-9a-z]{${TAG_LENGTH}})$`, "i").exec(query.trim());
  return match ? match[1]!.toLowerCase() : null;
}

/** "shop.example.com/pricing" for "https://shop.example.com/pricing?x=1". */
export function pageLabel(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
  } catch {
    return null;
  }
}
