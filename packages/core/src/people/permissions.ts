// Who may do what in the control panel: one table of permissions by role. Each panel operation
// names its permission beside its code (the modules' *-operations.ts, which packages/api turns into
// tRPC procedures); the routes that take the panel session outside tRPC name theirs in
// SESSION_ROUTE_PERMISSIONS below. Core operations that several callers share (the inbox) check
// their permission themselves too. A route missing from the table is refused for everyone (a test
// walks the whole matrix).
import { AppError } from "../platform/errors.ts";
import { type AdminScope, ROLES, type Role } from "./scope.ts";

export { ROLES, type Role };

const EVERYONE = ["owner", "admin", "editor", "support"] as const satisfies readonly Role[];
const INBOX = ["owner", "admin", "support"] as const satisfies readonly Role[];
const KNOWLEDGE = ["owner", "admin", "editor"] as const satisfies readonly Role[];
const MANAGERS = ["owner", "admin"] as const satisfies readonly Role[];

export const PERMISSIONS = {
  /** List, search and read conversations, their timeline and notes. */
  "inbox.read": INBOX,
  /** Write to the visitor (takes the conversation over first when the agent holds it). */
  "inbox.reply": INBOX,
  "inbox.takeOver": INBOX,
  "inbox.handBack": INBOX,
  "inbox.resolve": INBOX,
  /** Assign a conversation to any team member, or to nobody. */
  "inbox.assign": INBOX,
  /** Download conversations (filtered) as CSV or JSON transcripts: the whole inbox's visitor data. */
  "inbox.export": MANAGERS,
  /** Export or erase everything held about one visitor (a conversation, or an email address). */
  "visitorData.manage": MANAGERS,
  /** Write an internal note (seen by the team only). */
  "inbox.note": INBOX,
  /** Add, change and remove the team's saved replies (everyone who may reply may use them). */
  "inbox.savedReplies": INBOX,
  /** The panel's home: escalations waiting, activity per agent, keys near quota, the checklist. */
  "home.read": MANAGERS,
  /** The workspace's people by name (assignees). */
  "team.read": INBOX,
  /** Sources, articles and synonyms. */
  "knowledge.read": KNOWLEDGE,
  "knowledge.write": KNOWLEDGE,
  /** Upload images: pictures in articles (knowledge editors) and agents' logos (managers, who are editors too). */
  "images.upload": KNOWLEDGE,
  /** The list of agents: the inbox filters by agent and the knowledge base links sources to agents. */
  "agents.list": EVERYONE,
  /** An agent's page: its settings and key. */
  "agents.read": MANAGERS,
  "agents.write": MANAGERS,
  /** Delete an agent with its conversations and usage: the owner's call. */
  "agents.delete": ["owner"],
  /** The agent page's test chat: real turns (engine tokens), kept out of usage, quotas and the inbox. */
  "agents.test": MANAGERS,
  /** Generate, rotate and revoke an agent's HTTP API key. */
  "keys.manage": MANAGERS,
  "webhooks.manage": MANAGERS,
  "usage.read": MANAGERS,
  /** Invite people, change roles, deactivate and reactivate. */
  "people.manage": ["owner"],
  /** Read the audit log (nobody may edit or delete it). */
  "audit.read": MANAGERS,
  /** One's own password and sessions. */
  "account.own": EVERYONE,
  /** This instance's background tasks: last runs, outcomes, error codes (GET /api/health/tasks). */
  "operations.read": ["owner"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

/** Every permission's name, in table order. */
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as [Permission, ...Permission[]];

/** What each permission lets a person do, as the refusal names it ("Your role does not allow …"). */
const PERMISSION_ACTIONS: Record<Permission, string> = {
  "inbox.read": "reading conversations",
  "inbox.reply": "replying to visitors",
  "inbox.takeOver": "taking conversations over",
  "inbox.handBack": "handing conversations back to the agent",
  "inbox.resolve": "resolving conversations",
  "inbox.assign": "assigning conversations",
  "inbox.export": "exporting conversations",
  "visitorData.manage": "exporting or erasing a visitor's data",
  "inbox.note": "writing internal notes",
  "inbox.savedReplies": "changing saved replies",
  "home.read": "opening the panel's home page",
  "team.read": "listing the team",
  "knowledge.read": "reading the knowledge base",
  "knowledge.write": "changing the knowledge base",
  "images.upload": "uploading images",
  "agents.list": "listing agents",
  "agents.read": "opening an agent's settings",
  "agents.write": "changing agents",
  "agents.delete": "deleting agents",
  "agents.test": "test chats with an agent",
  "keys.manage": "managing HTTP API keys",
  "webhooks.manage": "managing webhooks",
  "usage.read": "reading usage",
  "people.manage": "managing people and invitations",
  "audit.read": "reading the audit log",
  "account.own": "managing your account",
  "operations.read": "reading the server's background tasks",
};

const ROLE_PLURALS: Record<Role, string> = { owner: "owners", admin: "admins", editor: "editors", support: "support teammates" };

/**
 * The readable refusal of a permission (the `details` of its 403): what was refused, who may do
 * it, and who can change a role. Shown in the panel where the action was tried, e.g. when the
 * person's role changed since the page loaded.
 */
export function refusalOf(permission: Permission): string {
  const holders = (PERMISSIONS[permission] as readonly Role[]).map((role) => ROLE_PLURALS[role]);
  const who = holders.length === 1 ? holders[0] : `${holders.slice(0, -1).join(", ")} and ${holders.at(-1)}`;
  return `Your role does not allow ${PERMISSION_ACTIONS[permission]}: only ${who} may. An owner of the workspace can change your role.`;
}

/** What a role may do, permission by permission: the panel's "can" map for the signed-in person. */
export type PermissionMap = Record<Permission, boolean>;

export function permissionsOf(role: Role): PermissionMap {
  return Object.fromEntries(PERMISSION_NAMES.map((permission) => [permission, roleMay(role, permission)])) as PermissionMap;
}
/** The inbox's permissions (the inbox operations check these themselves). */
export type InboxPermission = Extract<Permission, `inbox.${string}`>;

/** The permission of each route that takes the panel session outside tRPC, by method and path. */
export const SESSION_ROUTE_PERMISSIONS = {
  "POST /api/agents/{agent_id}/http-api-key": "keys.manage",
  "DELETE /api/agents/{agent_id}/http-api-key": "keys.manage",
  "GET /api/panel/events": "inbox.read",
  "GET /api/panel/conversations/export": "inbox.export",
  "GET /api/panel/visitor-data/export": "visitorData.manage",
  "POST /api/panel/imports": "knowledge.write",
  "POST /api/panel/images": "images.upload",
  "GET /api/health/tasks": "operations.read",
} as const satisfies Record<string, Permission>;

export type SessionRoute = keyof typeof SESSION_ROUTE_PERMISSIONS;

/** The panel's sections (their paths under /panel) and the permission that opens each. */
export const PANEL_SECTIONS = [
  { path: "/panel/agents", label: "Agents", permission: "agents.read" },
  { path: "/panel/knowledge", label: "Knowledge base", permission: "knowledge.read" },
  { path: "/panel/conversations", label: "Conversations", permission: "inbox.read" },
  { path: "/panel/usage", label: "Usage", permission: "usage.read" },
  { path: "/panel/webhooks", label: "Webhooks", permission: "webhooks.manage" },
  { path: "/panel/people", label: "People", permission: "people.manage" },
  { path: "/panel/audit", label: "Audit log", permission: "audit.read" },
  // Linked from the header's account corner, not the navigation.
  { path: "/panel/account", label: "Account", permission: "account.own", nav: false },
] as const satisfies ReadonlyArray<{ path: string; label: string; permission: Permission; nav?: false }>;

export function roleOf(scope: AdminScope): Role {
  return scope.role;
}

export function roleMay(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

export function can(scope: AdminScope, permission: Permission): boolean {
  return roleMay(roleOf(scope), permission);
}

/** Throws FORBIDDEN (403, the panel's "Forbidden", with the readable refusal as its details) unless the person holds the permission. */
export function assertCan(scope: AdminScope, permission: Permission): void {
  if (!can(scope, permission)) throw new AppError("FORBIDDEN", { details: refusalOf(permission) });
}

/** The permission of a session route, or undefined when the table has no entry for it. */
export function permissionOf(route: string): Permission | undefined {
  return Object.hasOwn(SESSION_ROUTE_PERMISSIONS, route) ? SESSION_ROUTE_PERMISSIONS[route as SessionRoute] : undefined;
}

/** Whether a role may call a session route; a route without an entry is refused for every role. */
export function roleMayCall(role: Role, route: SessionRoute): boolean {
  const permission = permissionOf(route);
  return permission !== undefined && roleMay(role, permission);
}

/**
 * Whether a person of this role may invite someone: the permission of `people.invite`, asked again
 * when an invitation is accepted and when its inviter's role changes, so no invitation outlives that right.
 */
export function roleMayInvite(role: Role): boolean {
  return roleMay(role, "people.manage");
}

/** Throws FORBIDDEN unless the person may call the session route. */
export function assertMayCall(scope: AdminScope, route: SessionRoute): void {
  if (!roleMayCall(roleOf(scope), route)) throw new AppError("FORBIDDEN");
}

/** The section of a panel path (the longest matching prefix), or undefined for the panel's home. */
export function panelSectionOf(pathname: string) {
  return PANEL_SECTIONS.find((section) => pathname === section.path || pathname.startsWith(`${section.path}/`));
}

/** The sections a role may open, in navigation order. */
export function panelSectionsFor(role: Role) {
  return PANEL_SECTIONS.filter((section) => roleMay(role, section.permission));
}
