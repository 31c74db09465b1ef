// people.* and account.* procedures on a real database: invitations (link shown once, hash
// stored, expiry, single use, wrong token), deactivation ending every session, the last owner
// guard, changing one's password (other sessions end) and the operator's password reset.
import {
  acceptInvitation,
  acceptInvitationInput,
  checkSession,
  hashPassword,
  openInvitation,
  resetPassword,
  signInAdmin,
  startSession,
} from "@parley/core/people";
import type { TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createWorkspace, NOW, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let b: Workspace;

beforeAll(async () => {
  ({ ctx, a, b } = await setup());
});
afterAll(async () => {
  await ctx.close();
});

const owner = () => callerFor(ctx, a.scope);
const tokenOf = (link: string) => link.split("/invite/")[1]!;
const signIn = (email: string, password: string) =>
  signInAdmin({ db: ctx.db, limiters: ctx.limiters }, { email, password }, `198.51.100.${Math.floor(Math.random() * 200)}`);
const INVALID = "This invitation link is not valid: it may have expired or been used already. Ask for a new invitation.";

async function addPerson(id: string, role: "owner" | "admin" | "editor" | "support", password = "unused") {
  const passwordHash = password === "unused" ? password : await hashPassword(password);
  await ctx.db.prisma.user.create({ data: { id, workspaceId: a.scope.workspaceId, email: `${id}@example.com`, role, passwordHash } });
  return { userId: id, workspaceId: a.scope.workspaceId, role };
}

describe("invitations", () => {
  it("an owner invites by email with a role; the link is shown once and only its hash is stored", async () => {
    const invited = await owner().people.invite({ email: " Sam@Example.com ", role: "support" });
    expect(invited).toMatchObject({ email: "sam@example.com", role: "support" });
    expect(invited.link).toMatch(/^http:\/\/[^/]+\/invite\/[A-Za-z0-9_-]{43}$/);
    expect(invited.expiresAt).toEqual(new Date(NOW.getTime() + 7 * 24 * 60 * 60 * 1000));
    const stored = await ctx.db.prisma.invitation.findUniqueOrThrow({ where: { id: invited.id } });
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(tokenOf(invited.link));
    const listed = await owner().people.list();
    expect(listed.invitations.map((invitation) => invitation.email)).toContain("sam@example.com");
    expect(JSON.stringify(listed)).not.toContain(tokenOf(invited.link));
  });

  it("accepting sets name and password, once: the person signs in with the invited role; the link then is not valid", async () => {
    const { link } = await owner().people.invite({ email: "kim@example.com", role: "editor" });
    await expect(openInvitation(ctx.db, tokenOf(link), NOW)).resolves.toMatchObject({ email: "kim@example.com", role: "editor" });
    await expect(acceptInvitation(ctx.db, { token: tokenOf(link), name: "Kim", password: "correct horse" }, NOW)).resolves.toEqual({
      email: "kim@example.com",
    });
    const person = await ctx.db.prisma.user.findUniqueOrThrow({ where: { email: "kim@example.com" } });
    expect(person).toMatchObject({ name: "Kim", role: "editor", workspaceId: a.scope.workspaceId, deactivatedAt: null });
    await expect(signIn("kim@example.com", "correct horse")).resolves.toMatchObject({ userId: person.id, role: "editor" });

    await expect(acceptInvitation(ctx.db, { token: tokenOf(link), name: "Again", password: "correct horse" }, NOW)).rejects.toThrow(
      INVALID,
    );
    await expect(openInvitation(ctx.db, tokenOf(link), NOW)).rejects.toThrow(INVALID);
    expect(await ctx.db.prisma.user.count({ where: { email: "kim@example.com" } })).toBe(1);
  });

  it("an expired or unknown token is refused with the same text; nothing is created", async () => {
    const { link } = await owner().people.invite({ email: "late@example.com", role: "admin" });
    const afterExpiry = new Date(NOW.getTime() + 7 * 24 * 60 * 60 * 1000 + 1);
    await expect(acceptInvitation(ctx.db, { token: tokenOf(link), name: "Late", password: "correct horse" }, afterExpiry)).rejects.toThrow(
      INVALID,
    );
    await expect(acceptInvitation(ctx.db, { token: `${tokenOf(link)}x`, name: "Late", password: "correct horse" }, NOW)).rejects.toThrow(
      INVALID,
    );
    await expect(openInvitation(ctx.db, "not-a-token", NOW)).rejects.toThrow(INVALID);
    expect(await ctx.db.prisma.user.count({ where: { email: "late@example.com" } })).toBe(0);
  });

  it("refuses an email that already has an account in the workspace, and a password shorter than 8 characters", async () => {
    await expect(owner().people.invite({ email: "alpha@example.com", role: "admin" })).rejects.toThrow(
      "A person with this email address already has an account",
    );
    const { link } = await owner().people.invite({ email: "short@example.com", role: "admin" });
    const parsed = acceptInvitationInput.safeParse({ token: tokenOf(link), name: "Short", password: "short" });
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual(["Use at least 8 characters"]);
  });

  it("an address with an account in another workspace is invited like any other; accepting is refused, nothing changes", async () => {
    const elsewhere = await ctx.db.prisma.user.findFirstOrThrow({ where: { workspaceId: b.scope.workspaceId }, select: { email: true } });
    const invited = await owner().people.invite({ email: elsewhere.email, role: "support" });
    expect(invited).toMatchObject({ email: elsewhere.email, role: "support", link: expect.stringContaining("/invite/") });
    const accepting = acceptInvitation(ctx.db, { token: tokenOf(invited.link), name: "Taken", password: "long enough" }, NOW);
    await expect(accepting).rejects.toThrow("A person with this email address already has an account");
    expect(await ctx.db.prisma.user.count({ where: { email: elsewhere.email } })).toBe(1);
    expect(await ctx.db.prisma.invitation.findUniqueOrThrow({ where: { id: invited.id } })).toMatchObject({ acceptedAt: null });
  });

  it("a withdrawn invitation stops working; another workspace cannot withdraw it", async () => {
    const invited = await owner().people.invite({ email: "gone@example.com", role: "support" });
    await expect(callerFor(ctx, b.scope).people.revokeInvitation({ id: invited.id })).resolves.toEqual({ revoked: false });
    await expect(owner().people.revokeInvitation({ id: invited.id })).resolves.toEqual({ revoked: true });
    await expect(openInvitation(ctx.db, tokenOf(invited.link), NOW)).rejects.toThrow(INVALID);
  });
});

describe("invitations outlive no inviter's right to invite", () => {
  const accept = (link: string, name: string) => acceptInvitation(ctx.db, { token: tokenOf(link), name, password: "correct horse" }, NOW);
  const withdrawals = (email: string) =>
    ctx.db.prisma.auditEvent.findMany({
      where: { action: "invitation.revoked", targetLabel: email },
      select: { actorUserId: true, targetType: true, detail: true },
    });

  it("deactivating an owner withdraws their pending invitations, audited; the link then is not valid", async () => {
    const inviter = await addPerson("leaving-owner", "owner");
    const { id, link } = await callerFor(ctx, inviter).people.invite({ email: "heir@example.com", role: "owner" });
    await owner().people.deactivate({ userId: inviter.userId });

    expect(await ctx.db.prisma.invitation.count({ where: { id } })).toBe(0);
    expect(await withdrawals("heir@example.com")).toEqual([
      { actorUserId: a.scope.userId, targetType: "invitation", detail: { role: "owner", reason: "inviter deactivated" } },
    ]);
    await expect(openInvitation(ctx.db, tokenOf(link), NOW)).rejects.toThrow(INVALID);
    await expect(accept(link, "Heir")).rejects.toThrow(INVALID);
    expect(await ctx.db.prisma.user.count({ where: { email: "heir@example.com" } })).toBe(0);
  });

  it("demoting an owner to a role that may not invite withdraws their pending invitations; others' stay", async () => {
    const inviter = await addPerson("demoted-owner", "owner");
    const theirs = await callerFor(ctx, inviter).people.invite({ email: "theirs@example.com", role: "admin" });
    const mine = await owner().people.invite({ email: "mine@example.com", role: "admin" });
    await owner().people.setRole({ userId: inviter.userId, role: "admin" });

    expect(await withdrawals("theirs@example.com")).toEqual([
      { actorUserId: a.scope.userId, targetType: "invitation", detail: { role: "admin", reason: "inviter's role changed" } },
    ]);
    await expect(accept(theirs.link, "Theirs")).rejects.toThrow(INVALID);
    await expect(accept(mine.link, "Mine")).resolves.toEqual({ email: "mine@example.com" });
  });

  it("accepting re-checks the inviter: deactivated or no longer allowed to invite, the link is not valid", async () => {
    const inviter = await addPerson("changed-owner", "owner");
    const first = await callerFor(ctx, inviter).people.invite({ email: "first@example.com", role: "owner" });
    const second = await callerFor(ctx, inviter).people.invite({ email: "second@example.com", role: "support" });
    // Changed behind the panel's back (an invitation made before withdrawals existed is the same).
    await ctx.db.prisma.user.update({ where: { id: inviter.userId }, data: { deactivatedAt: NOW } });
    // Neither is listed as pending any more: their links would not work.
    const pending = (await owner().people.list()).invitations.map((invitation) => invitation.email);
    expect(pending).not.toContain("first@example.com");
    expect(pending).not.toContain("second@example.com");
    await expect(openInvitation(ctx.db, tokenOf(first.link), NOW)).rejects.toThrow(INVALID);
    await expect(accept(first.link, "First")).rejects.toThrow(INVALID);
    await ctx.db.prisma.user.update({ where: { id: inviter.userId }, data: { deactivatedAt: null, role: "editor" } });
    await expect(accept(second.link, "Second")).rejects.toThrow(INVALID);
    expect(await ctx.db.prisma.user.count({ where: { email: { in: ["first@example.com", "second@example.com"] } } })).toBe(0);
    // The inviter back as an owner: the invitation, never withdrawn, works again.
    await ctx.db.prisma.user.update({ where: { id: inviter.userId }, data: { role: "owner" } });
    expect((await owner().people.list()).invitations.map((invitation) => invitation.email)).toContain("second@example.com");
    await expect(accept(second.link, "Second")).resolves.toEqual({ email: "second@example.com" });
    // The last-owner tests below count this workspace's active owners.
    await ctx.db.prisma.user.update({ where: { id: inviter.userId }, data: { deactivatedAt: NOW } });
  });
});

describe("deactivation, roles and the last owner", () => {
  it("deactivating ends every session of the person at once and refuses their sign-in; reactivating lets them back", async () => {
    const person = await addPerson("dee", "support", "dee password");
    const sessions = await Promise.all([1, 2].map(() => startSession(ctx.db, { userId: person.userId, ip: null, userAgent: null }, NOW)));
    for (const session of sessions)
      expect(await checkSession(ctx.db, { sessionId: session.id, userId: person.userId }, NOW)).not.toBeNull();

    await expect(owner().people.deactivate({ userId: person.userId })).resolves.toMatchObject({ id: "dee", active: false });
    const rows = await ctx.db.prisma.session.findMany({ where: { userId: person.userId } });
    expect(rows.map((row) => row.revokedAt)).toEqual([NOW, NOW]);
    for (const session of sessions) expect(await checkSession(ctx.db, { sessionId: session.id, userId: person.userId }, NOW)).toBeNull();
    await expect(signIn("dee@example.com", "dee password")).resolves.toBeNull();

    await expect(owner().people.reactivate({ userId: person.userId })).resolves.toMatchObject({ active: true });
    await expect(signIn("dee@example.com", "dee password")).resolves.toMatchObject({ userId: "dee", role: "support" });
  });

  it("a changed role applies at the next request of a live session", async () => {
    const person = await addPerson("rho", "support");
    const session = await startSession(ctx.db, { userId: person.userId, ip: null, userAgent: null }, NOW);
    await expect(owner().people.setRole({ userId: person.userId, role: "editor" })).resolves.toMatchObject({ role: "editor" });
    expect(await checkSession(ctx.db, { sessionId: session.id, userId: person.userId }, NOW)).toMatchObject({ role: "editor" });
  });

  it("the last active owner cannot be demoted or deactivated; with a second owner they can", async () => {
    const lastOwner = "The workspace needs at least one active owner. Make someone else an owner first.";
    await expect(owner().people.setRole({ userId: a.scope.userId, role: "admin" })).rejects.toThrow(lastOwner);
    await expect(owner().people.deactivate({ userId: a.scope.userId })).rejects.toThrow(lastOwner);
    // A deactivated owner does not count.
    const second = await addPerson("second-owner", "owner");
    await owner().people.deactivate({ userId: second.userId });
    await expect(owner().people.setRole({ userId: a.scope.userId, role: "admin" })).rejects.toThrow(lastOwner);
    await owner().people.reactivate({ userId: second.userId });
    await expect(owner().people.setRole({ userId: a.scope.userId, role: "admin" })).resolves.toMatchObject({ role: "admin" });
    await expect(callerFor(ctx, second).people.setRole({ userId: a.scope.userId, role: "owner" })).resolves.toMatchObject({
      role: "owner",
    });
  });

  it("two owners demoting each other at the same moment: one wins, the workspace keeps an owner", async () => {
    const gamma = await createWorkspace(ctx, "gamma");
    const other = { ...gamma.scope, userId: "gamma-second" };
    await ctx.db.prisma.user.create({
      data: {
        id: other.userId,
        workspaceId: gamma.scope.workspaceId,
        email: "gamma-second@example.com",
        role: "owner",
        passwordHash: "unused",
      },
    });
    const outcomes = await Promise.allSettled([
      callerFor(ctx, gamma.scope).people.setRole({ userId: other.userId, role: "admin" }),
      callerFor(ctx, other).people.setRole({ userId: gamma.scope.userId, role: "admin" }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    const owners = await ctx.db.prisma.user.count({ where: { workspaceId: gamma.scope.workspaceId, role: "owner" } });
    expect(owners).toBe(1);
  });

  it("people of another workspace are not found", async () => {
    await expect(callerFor(ctx, b.scope).people.deactivate({ userId: a.scope.userId })).rejects.toThrow("Team member not found");
    const listed = await callerFor(ctx, b.scope).people.list();
    expect(listed.people.map((person) => person.id)).toEqual([b.scope.userId]);
  });
});

describe("own account", () => {
  it("changing the password needs the current one and ends every other session, not this one", async () => {
    const me = await addPerson("pat", "support", "old password");
    const [current, other] = await Promise.all(
      ["this browser", "another browser"].map((userAgent) => startSession(ctx.db, { userId: me.userId, ip: "192.0.2.1", userAgent }, NOW)),
    );
    const caller = callerFor(ctx, { ...me, sessionId: current!.id });
    await expect(caller.account.changePassword({ currentPassword: "wrong password", newPassword: "new password" })).rejects.toThrow(
      "The current password is not correct",
    );
    await expect(caller.account.changePassword({ currentPassword: "old password", newPassword: "new password" })).resolves.toEqual({
      endedSessions: 1,
    });
    expect(await checkSession(ctx.db, { sessionId: current!.id, userId: me.userId }, NOW)).not.toBeNull();
    expect(await checkSession(ctx.db, { sessionId: other!.id, userId: me.userId }, NOW)).toBeNull();
    await expect(signIn("pat@example.com", "old password")).resolves.toBeNull();
    await expect(signIn("pat@example.com", "new password")).resolves.toMatchObject({ userId: "pat" });
  });

  it("lists own live sessions (the current one marked) and ends one; another person's session is not theirs to end", async () => {
    const me = await addPerson("lee", "editor");
    const mine = await startSession(ctx.db, { userId: me.userId, ip: "192.0.2.7", userAgent: "Firefox" }, NOW);
    const theirs = await startSession(ctx.db, { userId: a.scope.userId, ip: null, userAgent: null }, NOW);
    const caller = callerFor(ctx, { ...me, sessionId: mine.id });
    expect(await caller.account.sessions()).toEqual([
      { id: mine.id, createdAt: NOW, lastSeenAt: NOW, ip: "192.0.2.7", userAgent: "Firefox", browser: "Unknown browser", current: true },
    ]);
    await expect(caller.account.endSession({ id: theirs.id })).resolves.toEqual({ ended: false });
    expect(await checkSession(ctx.db, { sessionId: theirs.id, userId: a.scope.userId }, NOW)).not.toBeNull();
    await expect(caller.account.endSession({ id: mine.id })).resolves.toEqual({ ended: true });
    expect(await caller.account.sessions()).toEqual([]);
  });

  it("signs out everywhere else: every other session of the person ends, this one and other people's stay", async () => {
    const me = await addPerson("kit", "support");
    const chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const here = await startSession(ctx.db, { userId: me.userId, ip: "127.0.0.1", userAgent: chrome }, NOW);
    const elsewhere = await startSession(
      ctx.db,
      { userId: me.userId, ip: "192.0.2.8", userAgent: "Mozilla/5.0 (Windows NT 10.0) Firefox/133.0" },
      NOW,
    );
    const theirs = await startSession(ctx.db, { userId: a.scope.userId, ip: null, userAgent: null }, NOW);
    const caller = callerFor(ctx, { ...me, sessionId: here.id });
    expect((await caller.account.sessions()).map(({ browser, current }) => ({ browser, current }))).toEqual([
      { browser: "Chrome on Linux", current: true },
      { browser: "Firefox on Windows", current: false },
    ]);
    await expect(caller.account.endOtherSessions()).resolves.toEqual({ endedSessions: 1 });
    expect(await checkSession(ctx.db, { sessionId: elsewhere.id, userId: me.userId }, NOW)).toBeNull();
    expect(await checkSession(ctx.db, { sessionId: here.id, userId: me.userId }, NOW)).not.toBeNull();
    expect(await checkSession(ctx.db, { sessionId: theirs.id, userId: a.scope.userId }, NOW)).not.toBeNull();
    expect((await caller.account.sessions()).map((session) => session.id)).toEqual([here.id]);
  });

  it("the operator's reset sets a generated one-time password and ends every session", async () => {
    const me = await addPerson("ops", "owner", "forgotten password");
    await startSession(ctx.db, { userId: me.userId, ip: null, userAgent: null }, NOW);
    const reset = await resetPassword(ctx.db, "OPS@example.com", NOW);
    expect(reset).toMatchObject({ email: "ops@example.com", endedSessions: 1 });
    expect(reset.generatedPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    await expect(signIn("ops@example.com", reset.generatedPassword!)).resolves.toMatchObject({ userId: "ops" });
    await expect(resetPassword(ctx.db, "nobody@example.com", NOW)).rejects.toThrow("Team member not found");
  });
});
