// The audit log: who changed what, when and from where. recordAudit runs inside the transaction of
// the change it records, so a change never lands without its event and a rolled-back change leaves
// none. The panel only reads it (newest first, keyset pages, filters); nothing edits or deletes it.
import type { Database, Prisma } from "@parley/db";
import { z } from "zod";
import { AppError } from "../platform/errors.ts";
import {
  AUDIT_ACTION_NAMES,
  AUDIT_ACTIONS,
  AUDIT_GROUPS,
  AUDIT_TARGET_TYPES,
  type AuditAction,
  type AuditTargetType,
  auditActionsOf,
  describeAuditEvent,
} from "./audit-actions.ts";
import { AUDIT_PAGE_MAX, AUDIT_PAGE_SIZE } from "./limits.ts";
import { assertCan } from "./permissions.ts";
import { type AdminScope, type RequestClient, rowId } from "./scope.ts";

/** Who made a change: a person of the panel, or the operator's command line (no user, an email-like name). */
export interface AuditActor {
  workspaceId: string;
  userId: string | null;
  /** Taken from the person's row when not given. */
  email?: string;
  client?: RequestClient;
}

type DetailValue = string | number | boolean | null | string[];

export interface AuditEntry {
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: string;
  targetLabel: string;
  /** Small and free of secrets: names of changed fields, a role, a filter; never a key, secret, password or hash. */
  detail?: Record<string, DetailValue>;
}

/** Who the log names for a change made with `npm run admin` on the server. */
export const CLI_ACTOR = "operator (command line)";

/** The IP of a change made outside any request (the command line). */
export const NO_CLIENT: RequestClient = { ip: "local", userAgent: "" };

// A last guard: a field named like a secret never reaches the table, whatever a caller passes.
const SECRET_NAME = /secret|password|hash|token|key$/i;
const USER_AGENT_MAX_CHARS = 500;
const LABEL_MAX_CHARS = 200;

type AuditClient = Pick<Prisma.TransactionClient, "auditEvent" | "user">;

/** Writes one event with the transaction client of the change it records. */
export async function recordAudit(tx: AuditClient, actor: AuditActor, entry: AuditEntry): Promise<void> {
  const email = actor.email ?? (await actorEmail(tx, actor.userId));
  const detail = Object.fromEntries(Object.entries(entry.detail ?? {}).filter(([name]) => !SECRET_NAME.test(name)));
  const client = actor.client ?? NO_CLIENT;
  await tx.auditEvent.create({
    data: {
      workspaceId: actor.workspaceId,
      actorUserId: actor.userId,
      actorEmail: email,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      targetLabel: entry.targetLabel.slice(0, LABEL_MAX_CHARS),
      detail,
      ip: client.ip,
      userAgent: client.userAgent.slice(0, USER_AGENT_MAX_CHARS),
    },
  });
}

async function actorEmail(tx: AuditClient, userId: string | null): Promise<string> {
  if (userId === null) return "";
  const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true } });
  return user?.email ?? "";
}

const day = z.iso.date("Enter a date");

export const listAuditInput = z
  .object({
    actorUserId: rowId.optional(),
    group: z.enum(AUDIT_GROUPS).optional(),
    action: z.enum(AUDIT_ACTION_NAMES).optional(),
    targetType: z.enum(AUDIT_TARGET_TYPES).optional(),
    /** Days in UTC, both included. */
    from: day.optional(),
    to: day.optional(),
    cursor: z.string().trim().min(1).max(200).optional(),
    limit: z.number().int().min(1).max(AUDIT_PAGE_MAX).default(AUDIT_PAGE_SIZE),
  })
  .refine((input) => !input.from || !input.to || input.from <= input.to, { message: "The end date is before the start", path: ["to"] });

export type ListAuditInput = z.input<typeof listAuditInput>;

const eventSelect = {
  id: true,
  createdAt: true,
  actorUserId: true,
  actorEmail: true,
  action: true,
  targetType: true,
  targetId: true,
  targetLabel: true,
  detail: true,
  ip: true,
  userAgent: true,
} as const;

type EventRow = Prisma.AuditEventGetPayload<{ select: typeof eventSelect }>;

function toView(row: EventRow) {
  const definition = (AUDIT_ACTIONS as Record<string, { group: string }>)[row.action];
  return {
    ...row,
    detail: (row.detail ?? {}) as Record<string, DetailValue>,
    group: definition?.group ?? null,
    summary: describeAuditEvent(row.action, row.targetLabel),
  };
}

export type AuditEventView = ReturnType<typeof toView>;

/** One page of the workspace's events, newest first; `nextCursor` continues after the last row. */
export async function listAudit(db: Database, scope: AdminScope, input: z.output<typeof listAuditInput>) {
  assertCan(scope, "audit.read");
  const where: Prisma.AuditEventWhereInput = { workspaceId: scope.workspaceId };
  if (input.actorUserId) where.actorUserId = input.actorUserId;
  if (input.action) where.action = input.action;
  else if (input.group) where.action = { in: auditActionsOf(input.group) };
  if (input.targetType) where.targetType = input.targetType;
  if (input.from || input.to) {
    where.createdAt = {
      ...(input.from ? { gte: new Date(`${input.from}T00:00:00.000Z`) } : {}),
      ...(input.to ? { lt: new Date(new Date(`${input.to}T00:00:00.000Z`).getTime() + 86_400_000) } : {}),
    };
  }
  const after = input.cursor ? parseCursor(input.cursor) : null;
  const rows = await db.prisma.auditEvent.findMany({
    where: after
      ? { AND: [where, { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }] }
      : where,
    select: eventSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return { items: page.map(toView), nextCursor: rows.length > input.limit && last ? cursorOf(last) : null };
}

/** The people who appear in the workspace's log (the actor filter), by their email at the time. */
export async function listAuditActors(db: Database, scope: AdminScope) {
  assertCan(scope, "audit.read");
  const rows = await db.prisma.auditEvent.findMany({
    where: { workspaceId: scope.workspaceId, actorUserId: { not: null } },
    distinct: ["actorUserId"],
    select: { actorUserId: true, actorEmail: true },
    orderBy: [{ actorUserId: "asc" }, { createdAt: "desc" }],
  });
  return rows.map((row) => ({ userId: row.actorUserId as string, email: row.actorEmail })).sort((a, b) => a.email.localeCompare(b.email));
}

function cursorOf(row: { createdAt: Date; id: string }): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString("base64url");
}

function parseCursor(cursor: string): { createdAt: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const createdAt = new Date(iso ?? "");
  if (!id || Number.isNaN(createdAt.getTime())) throw new AppError("INVALID_REQUEST", { details: "cursor: Not a cursor of this list" });
  return { createdAt, id };
}
