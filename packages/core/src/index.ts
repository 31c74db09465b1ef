// @parley/core: the rules of Parley, shared by the REST routes, the panel's tRPC procedures and
// the widget's WebSocket. This index holds the foundations every feature uses; each feature has
// a named entry of its own (see package.json "exports"):
//   @parley/core/messages   the HTTP API's message turn (auth, quotas, idempotency, the turn)
//   @parley/core/help       the public help centre (visibility, lists, search, excerpts)
//   @parley/core/admin      what the panel does (agents, keys, articles, conversations, sessions)
//   @parley/core/widget     the widget's protocol, sessions and live events
//   @parley/core/webhooks   event types, signing and the delivery worker
//   @parley/core/engine     the engines that answer (knowledge agent, LLM agent)
//   @parley/core/ratelimit  the shared rate limiters
//   @parley/core/limits, /security-headers   plain constants, safe for config files and the proxy
//   @parley/core/page-writes   the proxy's same-origin rule for writes to pages (server actions)
//   @parley/core/browser    what the panel's client components may import
//   @parley/core/storable-text   the rule for text the database cannot store, in plain JS for server.mjs
//   @parley/core/request-path    the rule for paths that route elsewhere than they read, in plain JS too
//   @parley/core/demo       the demo data and its seed (db:seed, the first start, tests)
//   @parley/core/markdown, /openapi

export { type ClientAddressSource, clientIp } from "./client-ip.ts";
export type { AppContext } from "./context.ts";
export { API_DOCS_PATH, ERROR_CODES, ERROR_DOCS, type ErrorDoc, errorDocsAnchor, errorDocsLink, errorDocsUrl } from "./error-docs.ts";
export { AppError, ERRORS, type ErrorBody, type ErrorCode, isAppError } from "./errors.ts";
export { fieldMessage } from "./field-messages.ts";
export { databaseIsHealthy, type TaskHealth, type TasksHealth, tasksHealth } from "./health.ts";
export { generateAgentKey, hashAgentKey, revokeAgentKey } from "./keys.ts";
export { configureLogging, describeError, LOG_LEVELS, type LogLevel, logger } from "./logger.ts";
export { type Mailer, type MailMessage, senderFor, smtpMailer } from "./mail.ts";
export { errorResult, type HttpResult, jsonResult, methodNotAllowedResult } from "./results.ts";
export { safeLinkUrl } from "./safe-url.ts";
export { isUnstorableText, pathOfUnstorableText, storableString, UNSTORABLE_TEXT_RULE } from "./text.ts";
export { parseTrustProxy, TRUST_PROXY_MAX_HOPS, type TrustProxy } from "./trust-proxy.ts";
