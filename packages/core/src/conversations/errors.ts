// The errors conversations/ throws: their responses and documentation (error-table.ts assembles the public table).
import { defineErrors } from "../platform/errors.ts";
import { IDEMPOTENCY_TTL_HOURS, SAVED_REPLIES_MAX } from "../platform/limits.ts";
import { RATING_CHANGE_WINDOW_MINUTES } from "./limits.ts";

export const CONVERSATIONS_ERRORS = defineErrors({
  CONVERSATION_NOT_FOUND: {
    status: 404,
    message: "Conversation not found",
    trpc: "NOT_FOUND",
    meaning: "`conversationId` is not a conversation of this agent.",
    action: "Send back a `conversationId` this agent returned, or omit it to start a new conversation.",
  },
  SAVED_REPLY_NOT_FOUND: {
    status: 404,
    message: "Saved reply not found",
    trpc: "NOT_FOUND",
    meaning: "The saved reply is not one of your workspace's (or it was removed).",
    action: "Reload the saved replies and pick one that exists.",
  },
  SAVED_REPLY_TITLE_TAKEN: {
    status: 409,
    message: "A saved reply with this title already exists",
    trpc: "CONFLICT",
    meaning: "Another saved reply of the workspace has this title.",
    action: "Choose another title, or edit the existing reply.",
  },
  SAVED_REPLIES_LIMIT: {
    status: 409,
    message: "This workspace has the most saved replies allowed",
    trpc: "CONFLICT",
    meaning: `The workspace already has ${SAVED_REPLIES_MAX} saved replies.`,
    action: "Remove a saved reply the team no longer uses.",
  },
  CONVERSATION_NOT_RESOLVED: {
    status: 409,
    message: "Conversation is not resolved",
    trpc: "CONFLICT",
    meaning: "Only a conversation a team member resolved can be rated; a message written since reopened it.",
    action: "Offer the rating when the widget's `closing` frame says the conversation is resolved.",
  },
  RATING_NOT_CHANGEABLE: {
    status: 409,
    message: "Rating can no longer be changed",
    trpc: "CONFLICT",
    meaning: `A rating may be changed for ${RATING_CHANGE_WINDOW_MINUTES} minutes after it was first given; after that it stands until the conversation is resolved again.`,
    action: "Keep the rating shown; the visitor is asked again the next time the conversation is resolved.",
  },
  EMAIL_OFF: {
    status: 409,
    message: "Email is not available",
    trpc: "CONFLICT",
    meaning: "This server sends no email (no SMTP_URL), so it neither asks for nor keeps the visitor's address.",
    action: "Set SMTP_URL to let the widget ask for an email address and mail replies and transcripts.",
  },
  VISITOR_EMAIL_MISSING: {
    status: 409,
    message: "No email address for this conversation",
    trpc: "CONFLICT",
    meaning: "The transcript goes to the address the visitor gave in this conversation, and none was given.",
    action: "Send an `email` frame with the visitor's address first.",
  },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    message: "Idempotency-Key reused with a different request",
    trpc: "CONFLICT",
    meaning: `This Idempotency-Key was used in the last ${IDEMPOTENCY_TTL_HOURS} hours with a different request body.`,
    action: "Use a new Idempotency-Key for each new message; reuse a key only to retry the very same request.",
  },
});
