// An agent's own look for its help centre and widget: what an admin may set (validated here, once,
// for the panel's procedure and the preview), the defaults, and the readable text colour on an
// accent. Stored as JSON on the agent; a stored value is read back through the same schema, so a
// key this version does not know or a value that no longer passes falls back to its default.
// Pure (zod only): the panel's browser code imports it through @parley/core/browser.
import { z } from "zod";
import { isUploadedImagePath } from "../images/paths.ts";
import { safeHttpsUrl } from "../platform/safe-url.ts";
import {
  BRANDING_FOOTER_LABEL_MAX_CHARS,
  BRANDING_NAME_MAX_CHARS,
  BRANDING_URL_MAX_CHARS,
  WIDGET_GREETING_MAX_CHARS,
  WIDGET_SUGGESTION_MAX_CHARS,
  WIDGET_SUGGESTIONS_MAX,
} from "./limits.ts";

export const DEFAULT_ACCENT_COLOR = "#0b57d0";
export const DEFAULT_WIDGET_TITLE = "Chat with us";
export const DEFAULT_WIDGET_GREETING = "Hi! How can we help you today?";

const text = (max: number) => z.string().trim().max(max, `Use at most ${max} characters`);

/** Shown to every visitor: https only, never http, script or data addresses. */
const httpsUrl = (options: { optional: boolean }) =>
  z
    .string()
    .trim()
    .max(BRANDING_URL_MAX_CHARS, `Use at most ${BRANDING_URL_MAX_CHARS} characters`)
    .refine((value) => (options.optional && value === "") || safeHttpsUrl(value) !== undefined, "Enter an address starting with https://");

/** #rrggbb (or #rgb), stored as lower-case #rrggbb. */
export const hexColorInput = z
  .string()
  .trim()
  .regex(/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i, "Enter a colour as #rrggbb, e.g. #0b57d0")
  .transform((value) => {
    const hex = value.slice(1).toLowerCase();
    return `#${hex.length === 3 ? [...hex].map((digit) => digit + digit).join("") : hex}`;
  });

/** A question the visitor sends with one click, or (with articleId) an article the widget opens. */
const suggestionInput = z.object({
  text: text(WIDGET_SUGGESTION_MAX_CHARS).min(1, "Enter a question or an article title"),
  articleId: z.string().trim().min(1).max(100).nullable().default(null),
});

/** A logo: an uploaded image of this site (/api/images/…), or an https:// address elsewhere. */
const logoInput = z
  .string()
  .trim()
  .max(BRANDING_URL_MAX_CHARS, `Use at most ${BRANDING_URL_MAX_CHARS} characters`)
  .refine(
    (value) => value === "" || isUploadedImagePath(value) || safeHttpsUrl(value) !== undefined,
    "Enter an address starting with https://, or upload an image",
  );

export const brandingInput = z.object({
  /** Empty: the default public name (the workspace's name + " Help Centre"). */
  helpName: text(BRANDING_NAME_MAX_CHARS).default(""),
  logoUrl: logoInput.default(""),
  accentColor: hexColorInput.default(DEFAULT_ACCENT_COLOR),
  footerLink: z
    .object({ label: text(BRANDING_FOOTER_LABEL_MAX_CHARS).min(1, "Enter the link's text"), url: httpsUrl({ optional: false }) })
    .nullable()
    .default(null),
  widgetTitle: text(BRANDING_NAME_MAX_CHARS).default(""),
  widgetGreeting: text(WIDGET_GREETING_MAX_CHARS).default(""),
  widgetAccentColor: hexColorInput.default(DEFAULT_ACCENT_COLOR),
  suggestions: z.array(suggestionInput).max(WIDGET_SUGGESTIONS_MAX, `Use at most ${WIDGET_SUGGESTIONS_MAX} suggestions`).default([]),
});

export type Branding = z.infer<typeof brandingInput>;
export type BrandingSuggestion = Branding["suggestions"][number];

/** The stored branding with every missing or invalid key at its default. */
export function readBranding(stored: unknown): Branding {
  const value = stored !== null && typeof stored === "object" && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  const defaults = brandingInput.parse({});
  const result: Record<string, unknown> = { ...defaults };
  for (const key of Object.keys(defaults) as (keyof Branding)[]) {
    const field = brandingInput.shape[key].safeParse(value[key]);
    if (field.success) result[key] = field.data;
  }
  return result as Branding;
}

/** The help centre's public name: the one set, else "<workspace> Help Centre". */
export function helpCentreName(branding: Branding, workspaceName: string): string {
  return branding.helpName || `${workspaceName.trim() || "Our"} Help Centre`;
}

/** WCAG relative luminance of a #rrggbb colour. */
export function relativeLuminance(color: string): number {
  const linear = (start: number) => {
    const c = Number.parseInt(color.slice(start, start + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(1) + 0.7152 * linear(3) + 0.0722 * linear(5);
}

/** WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [relativeLuminance(a), relativeLuminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** White or black, whichever reads better on `accent` (buttons, the launcher, the header band). */
export function textColorOn(accent: string): "#ffffff" | "#000000" {
  return contrastRatio(accent, "#ffffff") >= contrastRatio(accent, "#000000") ? "#ffffff" : "#000000";
}
