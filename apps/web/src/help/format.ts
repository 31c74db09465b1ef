const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" });

/** "29 September 2026" (UTC, so every visitor and the server agree). */
export function formatDate(date: Date): string {
  return dateFormat.format(date);
}

/** "1 article", "3 articles". */
export function articleCount(count: number): string {
  return `${count} ${count === 1 ? "article" : "articles"}`;
}
