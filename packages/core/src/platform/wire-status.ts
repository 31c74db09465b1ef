// A conversation's status inside Parley and on the public wire. The panel has a third state,
// `resolved` (closed by a person); the spec's vocabulary (HTTP API responses, widget frames,
// webhooks' `conversation.status`) has only `active` and `escalated`. A resolved conversation is
// `active` there: the agent answers its next message, which reopens it.
export type ConversationState = "active" | "escalated" | "resolved";
export type WireStatus = "active" | "escalated";

export function wireStatus(state: ConversationState): WireStatus {
  return state === "escalated" ? "escalated" : "active";
}
