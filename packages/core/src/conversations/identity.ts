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

const TAG_LENGTH = 4;

/**
 * "#K3Z9": four letters and digits hashed from the conversation's id (32-bit FNV-1a, base 36), the
 * same wherever the panel shows that conversation, so a team can say "the #K3Z9 visitor".
 */
export function visitorTag(conversationId: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < conversationId.length; i++) {
    hash ^= conversationId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  const code = (hash >>> 0).toString(36).toUpperCase().padStart(TAG_LENGTH, "0");
  return `#${code.slice(-TAG_LENGTH)}`;
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
