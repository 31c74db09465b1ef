// Who may do what in the control panel's inbox: one table, consulted by every inbox operation
// (and so by each tRPC procedure and route over them). Today a workspace has one role, `admin`,
// which may do everything; a later role (an agent who may reply but not export, say) is a new
// entry in ROLES and a narrower list here, with no change to the operations.
import { AppError } from "../errors.ts";
import type { AdminScope } from "./scope.ts";

export const ROLES = ["admin"] as const;
export type Role = (typeof ROLES)[number];

export const INBOX_PERMISSIONS = {
  /** List, search and read conversations, their timeline and notes. */
  "inbox.read": ["admin"],
  /** Write to the visitor (takes the conversation over first when the agent holds it). */
  "inbox.reply": ["admin"],
  "inbox.takeOver": ["admin"],
  "inbox.handBack": ["admin"],
  "inbox.resolve": ["admin"],
  /** Assign a conversation to any team member, or to nobody. */
  "inbox.assign": ["admin"],
  /** Download conversations (filtered) as CSV or JSON transcripts. */
  "inbox.export": ["admin"],
  /** Write an internal note (seen by the team only). */
  "inbox.note": ["admin"],
  /** Add, change and remove the team's saved replies (everyone who may reply may use them). */
  "inbox.savedReplies": ["admin"],
} as const satisfies Record<string, readonly Role[]>;

export type InboxPermission = keyof typeof INBOX_PERMISSIONS;

/** The role of the signed-in person: every user is an admin until roles exist. */
export function roleOf(_scope: AdminScope): Role {
  return "admin";
}

export function can(scope: AdminScope, permission: InboxPermission): boolean {
  return (INBOX_PERMISSIONS[permission] as readonly Role[]).includes(roleOf(scope));
}

/** Throws FORBIDDEN (403, the panel's "Forbidden") unless the person holds the permission. */
export function assertCan(scope: AdminScope, permission: InboxPermission): void {
  if (!can(scope, permission)) throw new AppError("FORBIDDEN");
}
