// The documentation of every error of platform/errors.ts: what it means, what to do about it, and its stable
// anchor on the /docs page. The OpenAPI document lists the meanings under each response; the /docs
// page's Errors section shows the whole table; every REST error response links its entry in a
// `Link: <...>; rel="help"` header (the spec's error body has no room for a link).
import { ERRORS, type ErrorCode } from "./errors.ts";
import {
  ARTICLES_PER_SOURCE_MAX,
  IDEMPOTENCY_TTL_HOURS,
  PANEL_BATCH_CALLS_MAX,
  SAVED_REPLIES_MAX,
  WEBHOOK_ENDPOINTS_MAX,
} from "./limits.ts";

/** The path of the API reference page, where the Errors section lives. */
export const API_DOCS_PATH = "/docs";

/** What an error means for an integrator (`meaning`) and what to do about it (`action`). */
export interface ErrorDoc {
  meaning: string;
  action: string;
}

export const ERROR_DOCS = {
  INVALID_REQUEST: {
    meaning: "The request is malformed; `details` names each field and rule. Do not retry unchanged.",
    action: "Fix each field `details` names, then send the corrected request.",
  },
  BATCH_TOO_LARGE: {
    meaning: `A control-panel tRPC batch held more than ${PANEL_BATCH_CALLS_MAX} calls; none of them ran.`,
    action: `Send at most ${PANEL_BATCH_CALLS_MAX} calls per batch (the tRPC client's \`maxItems\`).`,
  },
  UNAUTHORIZED: {
    meaning: "No valid control-panel session cookie.",
    action: "Sign in to the control panel again.",
  },
  MISSING_BEARER_TOKEN: {
    meaning: "No `Authorization: Bearer <key>` header.",
    action: "Send the agent's HTTP API key as `Authorization: Bearer <key>`.",
  },
  INVALID_BEARER_TOKEN: {
    meaning: "Wrong key, or a key that was rotated or revoked.",
    action: "Use the agent's current key; if it was lost, generate a new one in the control panel. Do not retry unchanged.",
  },
  KEY_NOT_CONFIGURED: {
    meaning: "The agent's HTTP API is enabled but no key was generated.",
    action: "Generate a key in the agent's settings in the control panel.",
  },
  CONVERSATION_QUOTA_EXHAUSTED: {
    meaning: "The agent's monthly conversation quota is used up (a new conversation would exceed it).",
    action: "Alert the operator: raise the quota in the agent's settings or wait for next month. Retrying does not help.",
  },
  TOKEN_QUOTA_EXHAUSTED: {
    meaning: "The agent's monthly text-token quota is used up.",
    action: "Alert the operator: raise the quota in the agent's settings or wait for next month. Retrying does not help.",
  },
  USAGE_LIMIT_REACHED: {
    meaning: "The agent's usage limit is reached.",
    action: "Alert the operator: raise the usage limit in the agent's settings. Retrying does not help.",
  },
  VOICE_QUOTA_EXHAUSTED: {
    meaning: "The agent's monthly voice minutes are used up (voice over the widget socket; sent as an `error` frame, text chat goes on).",
    action: "Alert the operator: raise the voice minutes in the agent's settings or wait for next month. Retrying does not help.",
  },
  HTTP_API_DISABLED: {
    meaning: "The HTTP API is not enabled for this agent.",
    action: "Enable the HTTP API in the agent's settings in the control panel.",
  },
  FORBIDDEN: {
    meaning: "A cross-site request (foreign `Origin` or `Sec-Fetch-Site: cross-site`) with a session cookie.",
    action: "Make the request from the control panel's own origin.",
  },
  AGENT_NOT_FOUND: {
    meaning: "Unknown agent, an inactive agent, or (key routes) an agent outside your workspace.",
    action: "Check the agent id in the URL and that the agent is active.",
  },
  CONVERSATION_NOT_FOUND: {
    meaning: "`conversationId` is not a conversation of this agent.",
    action: "Send back a `conversationId` this agent returned, or omit it to start a new conversation.",
  },
  NOT_FOUND: {
    meaning: "Unknown, unpublished or inactive: all look the same.",
    action: "Check the ids in the URL; an unpublished article or an inactive agent stays hidden.",
  },
  SOURCE_NOT_FOUND: {
    meaning: "The knowledge-base source is not one of your workspace's, or was deleted.",
    action: "Reload the list of sources and pick one that exists.",
  },
  ARTICLE_NOT_FOUND: {
    meaning: "The article is not one of your workspace's, or was deleted.",
    action: "Reload the list of articles and pick one that exists.",
  },
  WEBHOOK_ENDPOINT_NOT_FOUND: {
    meaning: "The webhook endpoint is not one of your workspace's, or was deleted.",
    action: "Reload the list of endpoints and pick one that exists.",
  },
  WEBHOOK_DELIVERY_NOT_FOUND: {
    meaning: "The delivery is not one of your workspace's endpoints' deliveries.",
    action: "Reload the endpoint's deliveries and pick one that exists.",
  },
  WEBHOOK_URL_NOT_ALLOWED: {
    meaning:
      "The endpoint's URL is not `https://`, carries a user name or password, or points to a private, loopback or link-local address; `details` says which.",
    action: "Give a public `https://` URL without credentials.",
  },
  METHOD_NOT_ALLOWED: {
    meaning: "This path does not serve the method; `Allow` names the ones it does.",
    action: "Use one of the methods the `Allow` header names.",
  },
  WEBHOOK_ENDPOINT_DISABLED: {
    meaning: "A test event or a redelivery for a disabled endpoint.",
    action: "Enable the endpoint in the control panel, then try again.",
  },
  WEBHOOK_ENDPOINTS_LIMIT: {
    meaning: `The workspace already has ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints.`,
    action: "Delete an endpoint you no longer use; one endpoint can receive every event type.",
  },
  TEAM_MEMBER_NOT_FOUND: {
    meaning: "The person named is not a team member of this workspace (an assignee that does not exist, or left).",
    action: "Reload the list of team members and choose one of them.",
  },
  INVITATION_NOT_VALID: {
    meaning: "The invitation link is unknown, expired (after 7 days), withdrawn or already used.",
    action: "Ask an owner of the workspace for a new invitation.",
  },
  LAST_OWNER: {
    meaning: "The change would leave the workspace without an active owner.",
    action: "Make another person an owner first, then change this one.",
  },
  PERSON_EXISTS: {
    meaning: "A person with this email address already has an account.",
    action: "Invite another address, or reactivate that person's account.",
  },
  WRONG_CURRENT_PASSWORD: {
    meaning: "The current password given to change the password is not the person's password.",
    action: "Enter the current password as you sign in with it.",
  },
  AGENT_ID_TAKEN: {
    meaning: "Another agent already has this id.",
    action: "Choose another id.",
  },
  SAVED_REPLY_NOT_FOUND: {
    meaning: "The saved reply is not one of your workspace's (or it was removed).",
    action: "Reload the saved replies and pick one that exists.",
  },
  ARTICLE_SLUG_TAKEN: {
    meaning: "Another article of the same source already has this slug (slugs are unique per source).",
    action: "Choose another slug, or change the other article's first.",
  },
  ARTICLES_PER_SOURCE_LIMIT: {
    meaning: `The source already holds ${ARTICLES_PER_SOURCE_MAX.toLocaleString("en-US")} articles (drafts and archived ones count), so it takes no new or moved-in article.`,
    action: "Delete articles the source no longer needs, or create the article in another source (an agent may use several).",
  },
  ARTICLE_REVISION_TOO_LONG: {
    meaning: "The version chosen to restore has a longer title or content than an article may have now.",
    action: "Copy the part you need from the version into the article instead, within the limits.",
  },
  TRANSLATION_ORIGINAL_NOT_FOUND: {
    meaning: "The article chosen as the original of a translation is not one of your workspace's (or it was deleted).",
    action: "Reload the article editor and choose an original that exists.",
  },
  TRANSLATION_OF_ITSELF: {
    meaning: "An article was linked as a translation of itself.",
    action: "Choose another article as the original, or none.",
  },
  TRANSLATION_OF_TRANSLATION: {
    meaning: "The article chosen as the original is itself a translation (translations link their original only).",
    action: "Choose the article that one translates.",
  },
  TRANSLATION_HAS_TRANSLATIONS: {
    meaning: "The article has translations linked to it, so it is an original and cannot be a translation itself.",
    action: "Link its translations to the other original first, or keep this article an original.",
  },
  IMPORT_JOB_NOT_FOUND: {
    meaning: "The import is not one of your workspace's.",
    action: "Reload the source's imports and pick one that exists.",
  },
  SAVED_REPLY_TITLE_TAKEN: {
    meaning: "Another saved reply of the workspace has this title.",
    action: "Choose another title, or edit the existing reply.",
  },
  SAVED_REPLIES_LIMIT: {
    meaning: `The workspace already has ${SAVED_REPLIES_MAX} saved replies.`,
    action: "Remove a saved reply the team no longer uses.",
  },
  IDEMPOTENCY_CONFLICT: {
    meaning: `This Idempotency-Key was used in the last ${IDEMPOTENCY_TTL_HOURS} hours with a different request body.`,
    action: "Use a new Idempotency-Key for each new message; reuse a key only to retry the very same request.",
  },
  PAYLOAD_TOO_LARGE: {
    meaning: "The request body is larger than this route accepts; `details` says the limit. Do not retry unchanged.",
    action: "Send a smaller body (at most the limit `details` names).",
  },
  RATE_LIMITED: {
    meaning: "Too many requests: wait `Retry-After` seconds.",
    action: "Wait the `Retry-After` seconds (or back off 1 s, 2 s, 4 s), then retry.",
  },
  SIGN_IN_THROTTLED: {
    meaning: "Too many failed sign-ins for this account or from this address within a short time.",
    action: "Wait the `Retry-After` seconds, then sign in with the right password.",
  },
  INTERNAL: {
    meaning: "Something failed on our side; nothing was stored. Safe to retry (with the same Idempotency-Key for messages).",
    action: "Retry after a moment (messages: with the same Idempotency-Key); if it persists, quote the `X-Request-Id` to support.",
  },
} as const satisfies Record<ErrorCode, ErrorDoc>;

/** The error codes in the order of the table in platform/errors.ts. */
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** The stable anchor of an error on the /docs page: `errors-` and the code in kebab case (`errors-rate-limited`). */
export function errorDocsAnchor(code: ErrorCode): string {
  return `errors-${code.toLowerCase().replaceAll("_", "-")}`;
}

/** Where an error is documented, relative to the deployment (`/docs#errors-rate-limited`). */
export function errorDocsUrl(code: ErrorCode): string {
  return `${API_DOCS_PATH}#${errorDocsAnchor(code)}`;
}

/**
 * The `Link` header value (RFC 8288) every REST error response carries: its documentation, as a
 * reference relative to the request's own origin, where the /docs page is served.
 */
export function errorDocsLink(code: ErrorCode): string {
  return `<${errorDocsUrl(code)}>; rel="help"`;
}
