// The errors voice/ throws: their responses and documentation (error-table.ts assembles the public table).
import { defineErrors } from "../platform/errors.ts";

export const VOICE_ERRORS = defineErrors({
  VOICE_QUOTA_EXHAUSTED: {
    status: 402,
    message: "Monthly voice minutes exhausted",
    trpc: "FORBIDDEN",
    meaning: "The agent's monthly voice minutes are used up (voice over the widget socket; sent as an `error` frame, text chat goes on).",
    action: "Alert the operator: raise the voice minutes in the agent's settings or wait for next month. Retrying does not help.",
  },
});
