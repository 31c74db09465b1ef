// The errors agents/ throws: their responses and documentation (error-table.ts assembles the public table).
import { defineErrors } from "../platform/errors.ts";

export const AGENTS_ERRORS = defineErrors({
  MISSING_BEARER_TOKEN: {
    status: 401,
    message: "Missing bearer token",
    trpc: "UNAUTHORIZED",
    meaning: "No `Authorization: Bearer <key>` header.",
    action: "Send the agent's HTTP API key as `Authorization: Bearer <key>`.",
  },
  INVALID_BEARER_TOKEN: {
    status: 401,
    message: "Invalid bearer token",
    trpc: "UNAUTHORIZED",
    meaning: "Wrong key, or a key that was rotated or revoked.",
    action: "Use the agent's current key; if it was lost, generate a new one in the control panel. Do not retry unchanged.",
  },
  KEY_NOT_CONFIGURED: {
    status: 401,
    message: "HTTP API key not configured",
    trpc: "UNAUTHORIZED",
    meaning: "The agent's HTTP API is enabled but no key was generated.",
    action: "Generate a key in the agent's settings in the control panel.",
  },
  HTTP_API_DISABLED: {
    status: 403,
    message: "HTTP API disabled for this agent",
    trpc: "FORBIDDEN",
    meaning: "The HTTP API is not enabled for this agent.",
    action: "Enable the HTTP API in the agent's settings in the control panel.",
  },
  AGENT_ID_TAKEN: {
    status: 409,
    message: "An agent with this id already exists",
    trpc: "CONFLICT",
    meaning: "Another agent already has this id.",
    action: "Choose another id.",
  },
});
