// The errors usage/ throws: their responses and documentation (error-table.ts assembles the public table).
import { defineErrors } from "../platform/errors.ts";

export const USAGE_ERRORS = defineErrors({
  CONVERSATION_QUOTA_EXHAUSTED: {
    status: 402,
    message: "Monthly conversation quota exhausted",
    trpc: "FORBIDDEN",
    meaning: "The agent's monthly conversation quota is used up (a new conversation would exceed it).",
    action: "Alert the operator: raise the quota in the agent's settings or wait for next month. Retrying does not help.",
  },
  TOKEN_QUOTA_EXHAUSTED: {
    status: 402,
    message: "Monthly token quota exhausted",
    trpc: "FORBIDDEN",
    meaning: "The agent's monthly text-token quota is used up.",
    action: "Alert the operator: raise the quota in the agent's settings or wait for next month. Retrying does not help.",
  },
  USAGE_LIMIT_REACHED: {
    status: 402,
    message: "Usage limit reached",
    trpc: "FORBIDDEN",
    meaning: "The agent's usage limit is reached.",
    action: "Alert the operator: raise the usage limit in the agent's settings. Retrying does not help.",
  },
});
