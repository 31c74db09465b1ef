// The platform: what every module uses and nothing of a feature - errors and their documents,
// logging, rate limits, the context, mail, text rules, client addresses. Reached through the
// package's root entry (../index.ts).

export { type ClientAddressSource, clientIp, limitAddress } from "./client-ip.ts";
export type { PlatformContext } from "./context.ts";
export { API_DOCS_PATH, type ErrorDoc, errorDocsAnchor, errorDocsLink, errorDocsUrl } from "./error-docs.ts";
export {
  AppError,
  defineErrors,
  type ErrorBody,
  type ErrorDefinition,
  type ErrorRef,
  type ErrorSpec,
  errorDefinition,
  isAppError,
  PLATFORM_ERRORS,
  type PlatformErrorCode,
  type TrpcErrorCode,
} from "./errors.ts";
export { fieldMessage } from "./field-messages.ts";
export { databaseIsHealthy, type TaskHealth, type TasksHealth, tasksHealth } from "./health.ts";
export { configureLogging, describeError, LOG_LEVELS, type LogLevel, logger } from "./logger.ts";
export { type Mailer, type MailMessage, senderFor, smtpMailer } from "./mail.ts";
export { type HeaderReader, isSameOrigin } from "./origin.ts";
export { errorResult, type HttpResult, jsonResult, methodNotAllowedResult } from "./results.ts";
export { safeLinkUrl } from "./safe-url.ts";
export { isUnstorableText, pathOfUnstorableText, storableString, UNSTORABLE_TEXT_RULE } from "./text.ts";
export { parseTrustProxy, TRUST_PROXY_MAX_HOPS, type TrustProxy } from "./trust-proxy.ts";
export {
  BlockedUrlError,
  checkWebhookUrl,
  isBlockedAddress,
  parseWebhookUrl,
  type Resolver,
  resolveWebhookTarget,
  systemResolver,
  UnresolvedHostError,
  type UrlPolicy,
  webhookUrlHint,
} from "./url-guard.ts";
