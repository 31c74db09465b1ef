// Who the visitor is, as the panel names them (inbox rows, the conversation, alerts, the browser tab):
// their name, else their email, else the page a widget conversation started on (host and path), else
// "Anonymous visitor". Pure: the panel's browser code imports it through @parley/core/browser.
export interface VisitorIdentityFields {
  visitorName?: string | null;
  visitorEmail?: string | null;
  firstPageUrl?: string | null;
}

export function visitorIdentity(conversation: VisitorIdentityFields): string {
  if (conversation.visitorName) return conversation.visitorName;
  if (conversation.visitorEmail) return conversation.visitorEmail;
  const page = pageLabel(conversation.firstPageUrl);
  return page ? `Visitor on ${page}` : "Anonymous visitor";
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
