/** Where to go after signing in: only a path on this site (never "//evil.example" or a full URL). */
export function safeCallbackUrl(value: string | string[] | undefined): string {
  if (typeof value !== "string") return "/panel";
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/panel";
  return value;
}
