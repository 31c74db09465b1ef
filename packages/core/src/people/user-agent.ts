// A session's browser in words ("Chrome on Linux") from its User-Agent, for the account page's
// list of sessions. A small explicit parser of the major browsers and systems rather than a
// dependency: the list only needs a name a person recognises, never versions or devices. Order
// matters: Chromium-based browsers also say "Chrome" and "Safari", Chrome on iOS says "Safari".
// No imports, so the panel's client components may use it too.

const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera|OPiOS)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bVivaldi\//, "Vivaldi"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(HeadlessChrome|Chrome|CriOS)\//, "Chrome"],
  [/\bChromium\//, "Chromium"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/\bcurl\//, "curl"],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/\b(iPhone|iPad|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

const first = (list: Array<[RegExp, string]>, text: string) => list.find(([pattern]) => pattern.test(text))?.[1];

/** "Chrome on Linux", "Safari on iOS", "Firefox" (system unknown), "Unknown browser on Windows", or "Unknown browser". */
export function describeUserAgent(userAgent: string | null | undefined): string {
  const text = userAgent ?? "";
  const browser = first(BROWSERS, text);
  const system = first(SYSTEMS, text);
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  return system ? `Unknown browser on ${system}` : "Unknown browser";
}
