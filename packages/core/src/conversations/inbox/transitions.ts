// What a person can do to a conversation in the inbox, as a pure plan: take it over (it becomes
// escalated and theirs, so the agent stops answering), hand it back (active: the agent answers
// again), resolve it (closed by a person; the next message reopens it as active), assign it. A
// plan says what the row becomes and which timeline entries record it; a change to the state it
// already has plans nothing (no write, no event). Taking over is joining: the visitor is told the
// person joined (joinedById). Assigning is not: the visitor hears of the new assignee when they
// reply, and someone who joined before no longer speaks for the conversation once it is reassigned.
import type { ConversationState } from "../../platform/wire-status.ts";

export type InboxTransition =
  | { kind: "take_over" }
  | { kind: "hand_back" }
  | { kind: "resolve" }
  | { kind: "assign"; assigneeId: string | null };

/** Timeline entry kinds (ConversationActivity.kind). Turns add `escalated` and `reopened`. */
export type ActivityKind = "taken_over" | "handed_back" | "assigned" | "unassigned" | "resolved" | "reopened" | "escalated";

export interface ConversationFacts {
  status: ConversationState;
  assigneeId: string | null;
  /** The team member the visitor was told has joined, or null. */
  joinedById: string | null;
}

export interface TransitionPlan {
  status: ConversationState;
  assigneeId: string | null;
  /** Set when the conversation becomes escalated (waiting time starts), else unchanged. */
  escalatedAt?: Date;
  /** Set on resolve, cleared when it leaves `resolved`; absent: unchanged. */
  resolvedAt?: Date | null;
  /** Cleared when nobody waits for a person any more (handed back, resolved); absent: unchanged. */
  waitingSince?: null;
  joinedById: string | null;
  activities: Array<{ kind: ActivityKind; actorId: string; assigneeId: string | null }>;
}

export function planTransition(current: ConversationFacts, transition: InboxTransition, actorId: string, now: Date): TransitionPlan | null {
  const keep = { status: current.status, assigneeId: current.assigneeId, joinedById: current.joinedById };
  // The agent answers again, or the conversation is closed: no person speaks for it, nobody waits.
  const released = { joinedById: null, waitingSince: null } as const;
  switch (transition.kind) {
    case "take_over":
      // Assigned to them is not taken over: taking it over is how they join (the visitor is told).
      if (current.status === "escalated" && current.assigneeId === actorId && current.joinedById === actorId) return null;
      return {
        status: "escalated",
        assigneeId: actorId,
        joinedById: actorId,
        ...(current.status === "escalated" ? {} : { escalatedAt: now }),
        resolvedAt: null,
        activities: [{ kind: "taken_over", actorId, assigneeId: actorId }],
      };
    case "hand_back":
      if (current.status === "active") return null;
      return { ...keep, ...released, status: "active", resolvedAt: null, activities: [{ kind: "handed_back", actorId, assigneeId: null }] };
    case "resolve":
      if (current.status === "resolved") return null;
      return { ...keep, ...released, status: "resolved", resolvedAt: now, activities: [{ kind: "resolved", actorId, assigneeId: null }] };
    case "assign": {
      if (transition.assigneeId === current.assigneeId) return null;
      const kind = transition.assigneeId === null ? "unassigned" : "assigned";
      return {
        ...keep,
        assigneeId: transition.assigneeId,
        joinedById: transition.assigneeId === current.joinedById ? current.joinedById : null,
        activities: [{ kind, actorId, assigneeId: transition.assigneeId }],
      };
    }
  }
}

/**
 * A reply from a person takes the conversation over unless it is already escalated and assigned
 * (the reply then only makes the replier the one who joined, and ends the visitor's wait).
 */
export function replyTakesOver(current: ConversationFacts): boolean {
  return current.status !== "escalated" || current.assigneeId === null;
}
