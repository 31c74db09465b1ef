// What the panel's client components may import: plain values and pure functions with no
// Node.js module, database or secret behind them (the other entries pull those in).

// First: zod without its JIT probe, before any schema below is built (see platform/zod-jitless.ts).
import "./platform/zod-jitless.ts";

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
} from "./agents/branding.ts";
export { VOICE_LIMIT_SETTINGS } from "./agents/voice-settings.ts";
export { pageLabel, type VisitorIdentityFields, visitorIdentity, visitorTag } from "./conversations/identity.ts";
export { SAVED_REPLY_PLACEHOLDERS } from "./conversations/saved-replies/placeholders.ts";
/** The help centre's brand as its 404 page reads it (a type only: no server code comes along). */
export type { HelpBrand } from "./help/brand.ts";
export { helpArticleUrl, helpPaths } from "./help/urls.ts";
/** What the upload route answers (a type only: no server code comes along). */
export type { UploadedImage } from "./images/images.ts";
export { IMAGE_UPLOAD_MAX_BYTES } from "./images/limits.ts";
export { imagePath, isUploadedImagePath } from "./images/paths.ts";
export { ACCEPTED_IMAGE_TYPES_TEXT } from "./images/sniff.ts";
export { type ArticleState, type ArticleStatus, articleStatus } from "./knowledge/articles/status.ts";
export { LANGUAGE_CODES, LANGUAGE_NAMES, type LanguageCode } from "./knowledge/languages/codes.ts";
export {
  AUDIT_ACTION_NAMES,
  AUDIT_ACTIONS,
  AUDIT_GROUPS,
  AUDIT_TARGET_LABELS,
  AUDIT_TARGET_TYPES,
  type AuditAction,
  auditActionsOf,
} from "./people/audit-actions.ts";
export { type Permission, type PermissionMap, refusalOf } from "./people/permissions.ts";
export { safeLinkUrl } from "./platform/safe-url.ts";
export { isWebhookEventType, WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./webhooks/types.ts";
