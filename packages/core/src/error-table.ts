// The public error table: every error Parley returns, assembled from platform's generic codes and each
// module's errors.ts, in the order the /docs Errors section shows. The OpenAPI document's responses and
// the adapters read each error's status, text and tRPC code from its definition (or the AppError) instead.
import { AGENTS_ERRORS } from "./agents/errors.ts";
import { CONVERSATIONS_ERRORS } from "./conversations/errors.ts";
import { IMAGES_ERRORS } from "./images/errors.ts";
import { KNOWLEDGE_ERRORS } from "./knowledge/errors.ts";
import { PEOPLE_ERRORS } from "./people/errors.ts";
import type { ErrorDoc } from "./platform/error-docs.ts";
import { PLATFORM_ERRORS, type TrpcErrorCode } from "./platform/errors.ts";
import { USAGE_ERRORS } from "./usage/errors.ts";
import { VOICE_ERRORS } from "./voice/errors.ts";
import { WEBHOOKS_ERRORS } from "./webhooks/errors.ts";

/** Each table that declares errors; a code is declared in exactly one of them. */
export const ERROR_TABLES = [
  PLATFORM_ERRORS,
  PEOPLE_ERRORS,
  AGENTS_ERRORS,
  WEBHOOKS_ERRORS,
  USAGE_ERRORS,
  KNOWLEDGE_ERRORS,
  IMAGES_ERRORS,
  CONVERSATIONS_ERRORS,
  VOICE_ERRORS,
] as const;

const DEFINITIONS = {
  ...PLATFORM_ERRORS,
  ...PEOPLE_ERRORS,
  ...AGENTS_ERRORS,
  ...WEBHOOKS_ERRORS,
  ...USAGE_ERRORS,
  ...KNOWLEDGE_ERRORS,
  ...IMAGES_ERRORS,
  ...CONVERSATIONS_ERRORS,
  ...VOICE_ERRORS,
};

export type ErrorCode = keyof typeof DEFINITIONS;

/** The error codes in the order of the public table (the /docs Errors section): by kind, not by module. */
export const ERROR_CODES: readonly ErrorCode[] = [
  "INVALID_REQUEST",
  "BATCH_TOO_LARGE",
  "UNAUTHORIZED",
  "MISSING_BEARER_TOKEN",
  "INVALID_BEARER_TOKEN",
  "KEY_NOT_CONFIGURED",
  "CONVERSATION_QUOTA_EXHAUSTED",
  "TOKEN_QUOTA_EXHAUSTED",
  "USAGE_LIMIT_REACHED",
  "VOICE_QUOTA_EXHAUSTED",
  "HTTP_API_DISABLED",
  "FORBIDDEN",
  "AGENT_NOT_FOUND",
  "CONVERSATION_NOT_FOUND",
  "NOT_FOUND",
  "SOURCE_NOT_FOUND",
  "ARTICLE_NOT_FOUND",
  "TRANSLATION_ORIGINAL_NOT_FOUND",
  "TEAM_MEMBER_NOT_FOUND",
  "INVITATION_NOT_VALID",
  "PASSWORD_RESET_NOT_VALID",
  "PASSWORD_RESET_OFF",
  "LAST_OWNER",
  "PERSON_EXISTS",
  "WRONG_CURRENT_PASSWORD",
  "WEBHOOK_ENDPOINT_NOT_FOUND",
  "WEBHOOK_DELIVERY_NOT_FOUND",
  "SAVED_REPLY_NOT_FOUND",
  "WEBHOOK_URL_NOT_ALLOWED",
  "METHOD_NOT_ALLOWED",
  "WEBHOOK_ENDPOINT_DISABLED",
  "WEBHOOK_ENDPOINTS_LIMIT",
  "AGENT_ID_TAKEN",
  "ARTICLE_SLUG_TAKEN",
  "ARTICLES_PER_SOURCE_LIMIT",
  "ARTICLE_REVISION_TOO_LONG",
  "TRANSLATION_OF_ITSELF",
  "TRANSLATION_OF_TRANSLATION",
  "TRANSLATION_HAS_TRANSLATIONS",
  "IMPORT_JOB_NOT_FOUND",
  "SAVED_REPLY_TITLE_TAKEN",
  "SAVED_REPLIES_LIMIT",
  "IDEMPOTENCY_CONFLICT",
  "CONVERSATION_NOT_RESOLVED",
  "RATING_NOT_CHANGEABLE",
  "EMAIL_OFF",
  "VISITOR_EMAIL_MISSING",
  "PAYLOAD_TOO_LARGE",
  "IMAGE_TYPE_NOT_ACCEPTED",
  "RATE_LIMITED",
  "SIGN_IN_THROTTLED",
  "PASSWORD_RESET_THROTTLED",
  "INTERNAL",
];

/** Each error's HTTP status, the spec's `error` text and the tRPC code, by code. */
export const ERRORS = Object.fromEntries(
  ERROR_CODES.map((code) => [code, { status: DEFINITIONS[code].status, message: DEFINITIONS[code].message, trpc: DEFINITIONS[code].trpc }]),
) as Record<ErrorCode, { status: number; message: string; trpc: TrpcErrorCode }>;

/** Each error's documentation, by code. */
export const ERROR_DOCS = Object.fromEntries(
  ERROR_CODES.map((code) => [code, { meaning: DEFINITIONS[code].meaning, action: DEFINITIONS[code].action }]),
) as Record<ErrorCode, ErrorDoc>;
