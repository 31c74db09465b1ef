// What the panel's client components may import: plain values and pure functions with no
// Node.js module, database or secret behind them (the other entries pull those in).

// First: zod without its JIT probe, before any schema below is built (see zod-jitless.ts).
import "./zod-jitless.ts";

export {
  AUDIT_ACTION_NAMES,
  AUDIT_ACTIONS,
  AUDIT_GROUPS,
  AUDIT_TARGET_LABELS,
  AUDIT_TARGET_TYPES,
  type AuditAction,
  auditActionsOf,
} from "./admin/audit-actions.ts";
export { SAVED_REPLY_PLACEHOLDERS } from "./admin/saved-reply-placeholders.ts";
export { LANGUAGE_CODES, LANGUAGE_NAMES, type LanguageCode } from "./article-languages.ts";
export {
  type Branding,
  brandingInput,
  contrastRatio,
  DEFAULT_ACCENT_COLOR,
  DEFAULT_WIDGET_GREETING,
  DEFAULT_WIDGET_TITLE,
  helpCentreName,
  readBranding,
  textColorOn,
} from "./branding.ts";
/** The help centre's brand as its 404 page reads it (a type only: no server code comes along). */
export type { HelpBrand } from "./help/brand.ts";
export { helpArticleUrl, helpPaths } from "./help/urls.ts";
export { safeLinkUrl } from "./safe-url.ts";
export { VOICE_LIMIT_SETTINGS } from "./voice/limits.ts";
export { isWebhookEventType, WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./webhooks/types.ts";
