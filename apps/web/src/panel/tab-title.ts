// How a panel tab's title reads, in one place: the layout's template ("<page> · Parley panel"),
// and the unread count the inbox puts in front of it ("(2) ").

export const PANEL_TITLE_SUFFIX = " · Parley panel";
/** Next.js's title template for the panel's pages (app/panel/layout.tsx). */
export const PANEL_TITLE_TEMPLATE = `%s${PANEL_TITLE_SUFFIX}`;

const COUNT_PREFIX = /^\(\d+\) /;

/** The title without the count in front. */
export function withoutCount(title: string): string {
  return title.replace(COUNT_PREFIX, "");
}

/** The count in front of the title ("(2) "), or "". */
export function countPrefix(title: string): string {
  return COUNT_PREFIX.exec(title)?.[0] ?? "";
}
