// The workspace's people as an owner manages them: invitations (a one-time link whose token is
// stored only as its SHA-256, valid INVITATION_TTL_SECONDS, used once), roles, deactivation (which
// ends every session of the person at once, on every instance, since sessions are checked in the
// database) and reactivation. The workspace always keeps one active owner.
import { createHash, randomBytes } from "node:crypto";
import type { Database, Prisma } from "@parley/db";
import { z } from "zod";
import { limitAddress } from "../platform/client-ip.ts";
import { AppError } from "../platform/errors.ts";
import type { Mailer } from "../platform/mail.ts";
import { enforceRateLimit } from "../platform/ratelimit/index.ts";
import type { RateLimiters } from "../platform/ratelimit/types.ts";
import { newPasswordInput } from "./account.ts";
import { recordAudit } from "./audit.ts";
import { PEOPLE_ERRORS } from "./errors.ts";
import { type InvitationEmail, sendInvitation } from "./invitation-email.ts";
import { INVITATION_ATTEMPTS_PER_IP_PER_WINDOW, INVITATION_TTL_SECONDS, INVITATIONS_PER_WORKSPACE_PER_HOUR } from "./limits.ts";
import { hashPassword } from "./passwords.ts";
import { ROLES, type Role, roleMayInvite } from "./permissions.ts";
import { type AdminScope, rowId } from "./scope.ts";
import { endAllSessions } from "./sessions.ts";
import { passwordWork } from "./sign-in.ts";

export const roleInput = z.enum(ROLES);
export const inviteInput = z.object({
  email: z.string().trim().toLowerCase().max(320).pipe(z.email("Enter an email address")),
  role: roleInput,
});
export const setRoleInput = z.object({ userId: rowId, role: roleInput });
export const personIdInput = z.object({ userId: rowId });
export const invitationIdInput = z.object({ id: rowId });
/** An invitation token as the link carries it (32 random bytes, base64url). */
export const invitationTokenInput = z.string().trim().min(1).max(200);
export const acceptInvitationInput = z.object({
  token: invitationTokenInput,
  name: z.string().trim().min(1, "Enter your name").max(200),
  password: newPasswordInput,
});

const INVITATIONS_POLICY = { name: "invitations", limit: INVITATIONS_PER_WORKSPACE_PER_HOUR, windowSeconds: 60 * 60 };

const INVITATION_ATTEMPTS_POLICY = { name: "invitation-attempts", limit: INVITATION_ATTEMPTS_PER_IP_PER_WINDOW, windowSeconds: 15 * 60 };

/** Counts one attempt to open or accept an invitation link from this IP (RATE_LIMITED past the budget). */
export async function limitInvitationAttempt(limiters: RateLimiters, clientIp: string): Promise<void> {
  await enforceRateLimit(limiters.configured(INVITATION_ATTEMPTS_POLICY), limitAddress(clientIp));
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export interface PersonRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  createdAt: Date;
}

/**
 * The people of the workspace and the invitations that still work: not used, not expired, and
 * made by someone who may still invite (one made before that rule by a person since deactivated
 * or demoted would only say its link is not valid).
 */
export async function listPeople(db: Database, workspaceId: string, now: Date) {
  const [users, invitations] = await Promise.all([
    db.prisma.user.findMany({
      where: { workspaceId },
      select: { id: true, email: true, name: true, role: true, deactivatedAt: true, createdAt: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
    db.prisma.invitation.findMany({
      where: { workspaceId, acceptedAt: null, expiresAt: { gt: now } },
      select: {
        id: true,
        email: true,
        role: true,
        createdAt: true,
        expiresAt: true,
        invitedBy: { select: { role: true, deactivatedAt: true } },
      },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    }),
  ]);
  const people: PersonRow[] = users.map(({ deactivatedAt, ...user }) => ({ ...user, active: deactivatedAt === null }));
  const working = invitations
    .filter((invitation) => inviterMayInvite(invitation.invitedBy))
    .map(({ invitedBy: _, ...invitation }) => invitation);
  return { people, invitations: working };
}

/**
 * Creates an invitation and returns its link (shown once: only the token's hash is kept). An email
 * that already has an account in this workspace is refused; one with an account in another
 * workspace is invited like any other, so an invitation never tells who has an account elsewhere
 * (accepting it is then refused, to the address's owner). Inviting the same email again leaves
 * both links valid.
 * With a mailer the link is also emailed, after the invitation is stored; a failed send never
 * undoes the invitation (the panel then shows the link to copy).
 */
export async function inviteTeamMember(
  deps: { db: Database; limiters: RateLimiters; appUrl: string; mailer?: Mailer },
  scope: AdminScope,
  input: z.infer<typeof inviteInput>,
  now: Date,
): Promise<{ id: string; email: string; role: Role; link: string; expiresAt: Date; emailed: InvitationEmail }> {
  await enforceRateLimit(deps.limiters.configured(INVITATIONS_POLICY), scope.workspaceId);
  const existing = await deps.db.prisma.user.findUnique({ where: { email: input.email }, select: { workspaceId: true } });
  if (existing?.workspaceId === scope.workspaceId) throw new AppError(PEOPLE_ERRORS.PERSON_EXISTS);
  const token = randomBytes(32).toString("base64url");
  const invitation = await deps.db.prisma.$transaction(async (tx) => {
    const created = await tx.invitation.create({
      data: {
        workspaceId: scope.workspaceId,
        email: input.email,
        role: input.role,
        tokenHash: hashToken(token),
        invitedById: scope.userId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_SECONDS * 1000),
      },
      select: { id: true, email: true, role: true, expiresAt: true },
    });
    const target = { targetType: "invitation", targetId: created.id, targetLabel: created.email } as const;
    await recordAudit(tx, scope, { action: "person.invited", ...target, detail: { role: created.role } });
    return created;
  });
  const link = `${deps.appUrl}/invite/${token}`;
  const emailed = deps.mailer ? await sendInvitation(deps.db, deps.mailer, scope, { ...invitation, link }) : "off";
  return { ...invitation, link, emailed };
}

/** Withdraws an unused invitation of the workspace (its link stops working). */
export async function revokeInvitation(db: Database, scope: AdminScope, id: string): Promise<{ revoked: boolean }> {
  return db.prisma.$transaction(async (tx) => {
    const where = { id, workspaceId: scope.workspaceId, acceptedAt: null };
    const invitation = await tx.invitation.findFirst({ where, select: { email: true, role: true } });
    const { count } = await tx.invitation.deleteMany({ where });
    if (count !== 1 || !invitation) return { revoked: false };
    const target = { targetType: "invitation", targetId: id, targetLabel: invitation.email } as const;
    await recordAudit(tx, scope, { action: "invitation.revoked", ...target, detail: { role: invitation.role } });
    return { revoked: true };
  });
}

/** What the accept page shows for a link: the invited email and workspace, or INVITATION_NOT_VALID. */
export async function openInvitation(db: Database, token: string, now: Date) {
  const parsed = invitationTokenInput.safeParse(token);
  if (!parsed.success) throw new AppError(PEOPLE_ERRORS.INVITATION_NOT_VALID);
  const invitation = await db.prisma.invitation.findUnique({
    where: { tokenHash: hashToken(parsed.data) },
    select: {
      id: true,
      email: true,
      role: true,
      expiresAt: true,
      acceptedAt: true,
      workspace: { select: { name: true } },
      invitedBy: inviterSelect,
    },
  });
  if (!invitation || invitation.acceptedAt !== null || invitation.expiresAt <= now || !inviterMayInvite(invitation.invitedBy))
    throw new AppError(PEOPLE_ERRORS.INVITATION_NOT_VALID);
  return { id: invitation.id, email: invitation.email, role: invitation.role, workspaceName: invitation.workspace.name };
}

/**
 * Accepts an invitation: creates the person with the invitation's role, name and password. The
 * invitation is marked used in the same transaction, conditionally, so of two concurrent accepts
 * one wins; its inviter is checked again there, since they may have lost the right to invite
 * since the link was opened. Returns the new person's email (to sign in with).
 */
export async function acceptInvitation(db: Database, input: z.infer<typeof acceptInvitationInput>, now: Date): Promise<{ email: string }> {
  const invitation = await openInvitation(db, input.token, now);
  const passwordHash = await passwordWork(() => hashPassword(input.password));
  return db.prisma.$transaction(async (tx) => {
    const used = await tx.invitation.updateMany({
      where: { id: invitation.id, acceptedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now },
    });
    if (used.count !== 1) throw new AppError(PEOPLE_ERRORS.INVITATION_NOT_VALID);
    const row = await tx.invitation.findUniqueOrThrow({
      where: { id: invitation.id },
      select: { workspaceId: true, invitedBy: inviterSelect },
    });
    if (!inviterMayInvite(row.invitedBy)) throw new AppError(PEOPLE_ERRORS.INVITATION_NOT_VALID);
    const taken = await tx.user.findUnique({ where: { email: invitation.email }, select: { id: true } });
    if (taken) throw new AppError(PEOPLE_ERRORS.PERSON_EXISTS);
    await tx.user.create({
      data: {
        workspaceId: row.workspaceId,
        email: invitation.email,
        name: input.name,
        role: invitation.role,
        passwordHash,
        createdAt: now,
      },
    });
    return { email: invitation.email };
  });
}

/**
 * Changes a person's role; the last active owner keeps theirs (LAST_OWNER). A role that may not
 * invite withdraws the person's pending invitations.
 */
export async function setRole(db: Database, scope: AdminScope, input: z.infer<typeof setRoleInput>): Promise<PersonRow> {
  const { workspaceId } = scope;
  return db.prisma.$transaction(async (tx) => {
    await lockOwners(tx, workspaceId);
    const person = await findPerson(tx, workspaceId, input.userId);
    if (person.role === "owner" && input.role !== "owner" && person.active) await assertAnotherOwner(tx, workspaceId, person.id);
    const updated = await tx.user.update({ where: { id: person.id }, data: { role: input.role }, select: personSelect });
    if (person.role !== input.role) {
      await recordAudit(tx, scope, {
        action: "person.role.changed",
        ...personTarget(person),
        detail: { from: person.role, to: input.role },
      });
      if (!roleMayInvite(input.role)) await withdrawInvitationsOf(tx, scope, person.id, "inviter's role changed");
    }
    return toPerson(updated);
  });
}

/**
 * Deactivates a person, withdraws their pending invitations and ends all of their sessions at once;
 * the last active owner stays (LAST_OWNER).
 */
export async function deactivatePerson(db: Database, scope: AdminScope, userId: string, now: Date): Promise<PersonRow> {
  const { workspaceId } = scope;
  const person = await db.prisma.$transaction(async (tx) => {
    await lockOwners(tx, workspaceId);
    const found = await findPerson(tx, workspaceId, userId);
    if (found.role === "owner" && found.active) await assertAnotherOwner(tx, workspaceId, found.id);
    const updated = await tx.user.update({
      where: { id: found.id },
      data: { deactivatedAt: found.active ? now : undefined },
      select: personSelect,
    });
    if (found.active) {
      await recordAudit(tx, scope, { action: "person.deactivated", ...personTarget(found) });
      await withdrawInvitationsOf(tx, scope, found.id, "inviter deactivated");
    }
    return toPerson(updated);
  });
  // checkSession already refuses a deactivated person's sessions; ending them makes it final.
  await endAllSessions(db, person.id, now);
  return person;
}

export async function reactivatePerson(db: Database, scope: AdminScope, userId: string): Promise<PersonRow> {
  return db.prisma.$transaction(async (tx) => {
    const person = await findPerson(tx, scope.workspaceId, userId);
    const updated = await tx.user.update({ where: { id: person.id }, data: { deactivatedAt: null }, select: personSelect });
    if (!person.active) await recordAudit(tx, scope, { action: "person.reactivated", ...personTarget(person) });
    return toPerson(updated);
  });
}

const inviterSelect = { select: { role: true, deactivatedAt: true } } as const;

/** An invitation holds only while its inviter is active and may still invite (a deleted inviter leaves none). */
function inviterMayInvite(inviter: { role: Role; deactivatedAt: Date | null } | null): boolean {
  return inviter !== null && inviter.deactivatedAt === null && roleMayInvite(inviter.role);
}

/**
 * Withdraws every unused invitation a person made, each audited as withdrawn by whoever changed
 * the person. One at a time and conditionally, so an invitation accepted meanwhile is left alone.
 */
async function withdrawInvitationsOf(
  tx: Prisma.TransactionClient,
  scope: AdminScope,
  inviterId: string,
  reason: "inviter deactivated" | "inviter's role changed",
): Promise<void> {
  const pending = await tx.invitation.findMany({
    where: { invitedById: inviterId, workspaceId: scope.workspaceId, acceptedAt: null },
    select: { id: true, email: true, role: true },
    orderBy: { id: "asc" },
  });
  for (const invitation of pending) {
    const { count } = await tx.invitation.deleteMany({ where: { id: invitation.id, acceptedAt: null } });
    if (count !== 1) continue;
    const target = { targetType: "invitation", targetId: invitation.id, targetLabel: invitation.email } as const;
    await recordAudit(tx, scope, { action: "invitation.revoked", ...target, detail: { role: invitation.role, reason } });
  }
}

const personTarget = (person: PersonRow) => ({ targetType: "person", targetId: person.id, targetLabel: person.email }) as const;

const personSelect = { id: true, email: true, name: true, role: true, deactivatedAt: true, createdAt: true } as const;

type PersonSelected = { deactivatedAt: Date | null } & Omit<PersonRow, "active">;
const toPerson = ({ deactivatedAt, ...user }: PersonSelected): PersonRow => ({ ...user, active: deactivatedAt === null });

type Client = Pick<Database["prisma"], "user">;

async function findPerson(client: Client, workspaceId: string, userId: string): Promise<PersonRow> {
  const user = await client.user.findFirst({ where: { id: userId, workspaceId }, select: personSelect });
  if (!user) throw new AppError(PEOPLE_ERRORS.TEAM_MEMBER_NOT_FOUND);
  return toPerson(user);
}

/**
 * Locks the workspace's owners until the transaction ends, so that two owners demoting or
 * deactivating each other at the same moment are checked one after the other: the second then
 * counts the first's change and is refused as the last owner.
 */
async function lockOwners(tx: Prisma.TransactionClient, workspaceId: string): Promise<void> {
  await tx.$queryRaw`SELECT "id" FROM "User" WHERE "workspaceId" = ${workspaceId} AND "role" = 'owner' FOR UPDATE`;
}

async function assertAnotherOwner(client: Client, workspaceId: string, exceptUserId: string): Promise<void> {
  const others = await client.user.count({ where: { workspaceId, role: "owner", deactivatedAt: null, id: { not: exceptUserId } } });
  if (others === 0) throw new AppError(PEOPLE_ERRORS.LAST_OWNER);
}
