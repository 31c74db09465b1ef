// The audit log through the panel's procedures: an action records exactly one event with who, what
// and from where; a change that rolls back records nothing; no key or secret reaches the table; the
// list filters, pages newest first, stays inside the workspace and is refused to editors and support.

import { generateHttpApiKey } from "@parley/core/agents";
import { exportConversations, parseExportQuery } from "@parley/core/conversations";
import { hashPassword, recordAudit, resetPassword } from "@parley/core/people";
import type { TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { callerFor, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let b: Workspace;
const client = { ip: "203.0.113.7", userAgent: "Mozilla/5.0 (Audit test)" };

beforeAll(async () => {
  ({ ctx, a, b } = await setup());
  ctx.webhooks = { allowLocal: true };
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await ctx.db.prisma.auditEvent.deleteMany({});
});

const owner = () => callerFor(ctx, a.scope, { client });
const events = () => ctx.db.prisma.auditEvent.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
/** Every column of every audit row as text: what a secret must never appear in. */
const auditTableText = async () => JSON.stringify(await ctx.db.prisma.$queryRawUnsafe(`SELECT * FROM "AuditEvent"`));

describe("recording", () => {
  it("generating then rotating a key records one event each, with the actor, target, IP and user agent, and never the key", async () => {
    const generated = await owner().keys.generate({ agentId: a.agentId });
    const rotated = await owner().keys.generate({ agentId: a.agentId });
    const rows = await events();
    expect(rows.map((row) => row.action)).toEqual(["agent.key.generated", "agent.key.rotated"]);
    expect(rows[1]).toMatchObject({
      workspaceId: a.scope.workspaceId,
      actorUserId: a.scope.userId,
      actorEmail: "alpha@example.com",
      targetType: "agent",
      targetId: a.agentId,
      targetLabel: "alpha agent",
      ip: "203.0.113.7",
      userAgent: "Mozilla/5.0 (Audit test)",
      detail: {},
    });
    const text = await auditTableText();
    for (const key of [generated.key, rotated.key]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(3, 20));
    }
    const { items } = await owner().audit.list({});
    expect(items[0]?.summary).toBe("Rotated the HTTP API key of alpha agent");
  });

  it("the REST key route records with the session's client", async () => {
    await ctx.db.prisma.agent.update({ where: { id: a.agentId }, data: { keyHash: null, keyLast4: null, keyCreatedAt: null } });
    const session = { ...a.scope, client: { ip: "198.51.100.2", userAgent: "curl/8" } };
    const response = await generateHttpApiKey(ctx, { session, sameOrigin: true }, a.agentId);
    expect(response.status).toBe(201);
    expect(await events()).toEqual([expect.objectContaining({ action: "agent.key.generated", ip: "198.51.100.2", userAgent: "curl/8" })]);
    await owner().keys.revoke({ agentId: a.agentId });
    await owner().keys.revoke({ agentId: a.agentId }); // no key left: nothing changes, nothing recorded
    expect((await events()).map((row) => row.action)).toEqual(["agent.key.generated", "agent.key.revoked"]);
  });

  it("a webhook endpoint's secret never reaches the log, created or rolled", async () => {
    const created = await owner().webhooks.create({
      url: "https://hooks.example.com/parley?token=abc123",
      description: "",
      allAgents: true,
      agentIds: [],
      eventTypes: ["conversation.escalated"],
      enabled: true,
    });
    const rolled = await owner().webhooks.rollSecret({ id: created.endpoint.id });
    await owner().webhooks.setEnabled({ id: created.endpoint.id, enabled: false });
    await owner().webhooks.delete({ id: created.endpoint.id });
    const rows = await events();
    expect(rows.map((row) => row.action)).toEqual(["webhook.created", "webhook.secret.rolled", "webhook.disabled", "webhook.deleted"]);
    expect(rows.every((row) => row.targetLabel === "hooks.example.com")).toBe(true);
    const text = await auditTableText();
    for (const secret of [created.secret, rolled.secret, "abc123"]) expect(text).not.toContain(secret);
  });

  it("an agent's settings record which fields changed, not their values; synonyms alone read as such", async () => {
    await owner().agents.update({ id: a.agentId, instructions: "Be brief and kind", active: false });
    await owner().agents.update({ id: a.agentId, knowledgeSynonyms: "refund, money back" });
    await owner().agents.update({ id: a.agentId, instructions: "Be brief and kind" }); // no change: nothing recorded
    const rows = await events();
    expect(rows.map((row) => [row.action, row.detail])).toEqual([
      ["agent.updated", { fields: ["active", "instructions"] }],
      ["agent.synonyms.updated", { fields: ["knowledgeSynonyms"] }],
    ]);
    expect(await auditTableText()).not.toContain("Be brief");
  });

  it("an article's save names only the fields that changed from what is stored, not every field the editor sent", async () => {
    const article = await owner().articles.create({ sourceId: a.sourceId, title: "Delivery", content: "Two days" });
    await ctx.db.prisma.auditEvent.deleteMany({});
    const everyField = {
      id: article.id,
      title: "Delivery",
      slug: article.slug,
      sourceId: a.sourceId,
      language: null,
      translationOfId: null,
    };
    await owner().articles.update({ ...everyField, content: "Three days" });
    await owner().articles.update({ ...everyField, title: "Delivery times", content: "Three days" });
    await owner().articles.update({ ...everyField, title: "Delivery times", content: "Three days", language: "en" });
    await owner().articles.update({ ...everyField, title: "Delivery times", content: "Three days", language: "en" }); // no change
    const rows = await events();
    expect(rows.map((row) => [row.action, row.detail])).toEqual([
      ["article.updated", { fields: ["content"] }],
      ["article.updated", { fields: ["title"] }],
      ["article.updated", { fields: ["language"] }],
    ]);
    // The save that changed nothing added no version either.
    expect(await owner().articles.revisions({ articleId: article.id })).toHaveLength(4);
  });

  it("knowledge, people, saved replies and exports each record exactly one event", async () => {
    const article = await owner().articles.create({ sourceId: a.sourceId, title: "Refunds", content: "Body" });
    await owner().articles.setPublished({ id: article.id, published: true });
    await owner().articles.setActive({ id: article.id, active: false });
    await owner().sources.setAgents({ id: a.sourceId, agentIds: [a.agentId] });
    const invitation = await owner().people.invite({ email: "new@example.com", role: "support" });
    await owner().people.revokeInvitation({ id: invitation.id });
    const reply = await owner().savedReplies.create({ title: "Hello", text: "Hi there" });
    await owner().savedReplies.delete({ id: reply.id });
    await exportConversations(ctx, { ...a.scope, client }, parseExportQuery(new URLSearchParams({ format: "csv", q: "ada@example.org" })));
    const rows = await events();
    expect(rows.map((row) => `${row.action} ${row.targetLabel}`)).toEqual([
      "article.created Refunds",
      "article.published Refunds",
      "article.deactivated Refunds",
      "source.agents.linked alpha source",
      "person.invited new@example.com",
      "invitation.revoked new@example.com",
      "savedReply.created Hello",
      "savedReply.deleted Hello",
      "conversations.exported CSV export",
    ]);
    expect(rows.at(-1)?.detail).toMatchObject({ format: "csv", filters: expect.arrayContaining(["q"]) });
    expect(await auditTableText()).not.toContain("ada@example.org");
    expect(await auditTableText()).not.toContain(invitation.link.split("/").at(-1));
  });

  it("people and accounts: role changes, deactivation, passwords and sessions; the command line's reset names the operator", async () => {
    const colleague = await ctx.db.prisma.user.create({
      data: {
        workspaceId: a.scope.workspaceId,
        email: "sam@example.com",
        passwordHash: await hashPassword("sam-password-1"),
        role: "support",
      },
    });
    await owner().people.setRole({ userId: colleague.id, role: "editor" });
    await owner().people.deactivate({ userId: colleague.id });
    await owner().people.reactivate({ userId: colleague.id });
    const sam = { userId: colleague.id, workspaceId: a.scope.workspaceId, role: "editor" as const };
    await callerFor(ctx, sam, { client }).account.changePassword({ currentPassword: "sam-password-1", newPassword: "sam-password-2" });
    const session = await ctx.db.prisma.session.create({
      data: { userId: colleague.id, expiresAt: new Date(Date.now() + 3_600_000), lastSeenAt: new Date() },
    });
    await callerFor(ctx, sam, { client }).account.endSession({ id: session.id });
    await resetPassword(ctx.db, "sam@example.com", new Date());
    const rows = await events();
    expect(rows.map((row) => [row.action, row.actorEmail, row.targetLabel, row.detail])).toEqual([
      ["person.role.changed", "alpha@example.com", "sam@example.com", { from: "support", to: "editor" }],
      ["person.deactivated", "alpha@example.com", "sam@example.com", {}],
      ["person.reactivated", "alpha@example.com", "sam@example.com", {}],
      ["account.password.changed", "sam@example.com", "sam@example.com", {}],
      ["account.session.ended", "sam@example.com", "sam@example.com", {}],
      ["account.password.reset", "operator (command line)", "sam@example.com", {}],
    ]);
    expect(rows.at(-1)).toMatchObject({ actorUserId: null, ip: "local" });
    const text = await auditTableText();
    for (const secret of ["sam-password-1", "sam-password-2", colleague.passwordHash]) expect(text).not.toContain(secret);
  });

  it("a change that fails records nothing; an event written in a transaction that rolls back is gone", async () => {
    await expect(owner().people.deactivate({ userId: a.scope.userId })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(owner().keys.generate({ agentId: b.agentId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      ctx.db.prisma.$transaction(async (tx) => {
        await tx.agent.update({ where: { id: a.agentId }, data: { name: "Renamed" } });
        await recordAudit(tx, a.scope, { action: "agent.updated", targetType: "agent", targetId: a.agentId, targetLabel: "Renamed" });
        throw new Error("the change fails after its event");
      }),
    ).rejects.toThrow("the change fails");
    expect(await events()).toEqual([]);
    expect((await ctx.db.prisma.agent.findUniqueOrThrow({ where: { id: a.agentId } })).name).toBe("alpha agent");
  });
});

describe("the list", () => {
  const at = (day: number, hour = 12) => new Date(Date.UTC(2026, 10, day, hour));

  async function seedEvents() {
    const colleague = await ctx.db.prisma.user.upsert({
      where: { id: "alpha-colleague" },
      create: { id: "alpha-colleague", workspaceId: a.scope.workspaceId, email: "colleague@example.com", passwordHash: "x", role: "admin" },
      update: {},
    });
    const base = { workspaceId: a.scope.workspaceId, ip: "203.0.113.7" };
    const rows = [
      { action: "agent.key.rotated", targetType: "agent", createdAt: at(1), actorUserId: a.scope.userId, actorEmail: "alpha@example.com" },
      { action: "article.published", targetType: "article", createdAt: at(2), actorUserId: colleague.id, actorEmail: colleague.email },
      { action: "article.created", targetType: "article", createdAt: at(3), actorUserId: colleague.id, actorEmail: colleague.email },
      { action: "webhook.created", targetType: "webhook", createdAt: at(4), actorUserId: a.scope.userId, actorEmail: "alpha@example.com" },
      {
        action: "person.invited",
        targetType: "invitation",
        createdAt: at(5),
        actorUserId: a.scope.userId,
        actorEmail: "alpha@example.com",
      },
    ];
    for (const [index, row] of rows.entries()) {
      await ctx.db.prisma.auditEvent.create({
        data: { ...base, ...row, id: `ev-${index + 1}`, targetId: `t${index}`, targetLabel: `T${index + 1}` },
      });
    }
    await ctx.db.prisma.auditEvent.create({
      data: {
        workspaceId: b.scope.workspaceId,
        actorEmail: "beta@example.com",
        action: "agent.created",
        targetType: "agent",
        targetId: "x",
        targetLabel: "Beta",
        ip: "1.1.1.1",
      },
    });
  }

  const ids = (page: { items: { id: string }[] }) => page.items.map((item) => item.id);

  it("pages newest first with a cursor until the end, inside the workspace", async () => {
    await seedEvents();
    const first = await owner().audit.list({ limit: 2 });
    expect(ids(first)).toEqual(["ev-5", "ev-4"]);
    const second = await owner().audit.list({ limit: 2, cursor: first.nextCursor ?? undefined });
    expect(ids(second)).toEqual(["ev-3", "ev-2"]);
    const last = await owner().audit.list({ limit: 2, cursor: second.nextCursor ?? undefined });
    expect(ids(last)).toEqual(["ev-1"]);
    expect(last.nextCursor).toBeNull();
    expect(ids(await callerFor(ctx, b.scope).audit.list({}))).toHaveLength(1);
    await expect(owner().audit.list({ cursor: "not-a-cursor" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("filters by actor, group, action, target type and days (both included)", async () => {
    await seedEvents();
    expect(ids(await owner().audit.list({ actorUserId: "alpha-colleague" }))).toEqual(["ev-3", "ev-2"]);
    expect(ids(await owner().audit.list({ group: "Knowledge" }))).toEqual(["ev-3", "ev-2"]);
    expect(ids(await owner().audit.list({ action: "agent.key.rotated" }))).toEqual(["ev-1"]);
    expect(ids(await owner().audit.list({ targetType: "webhook" }))).toEqual(["ev-4"]);
    expect(ids(await owner().audit.list({ from: "2026-11-02", to: "2026-11-04" }))).toEqual(["ev-4", "ev-3", "ev-2"]);
    expect(ids(await owner().audit.list({ from: "2026-11-05" }))).toEqual(["ev-5"]);
    await expect(owner().audit.list({ from: "2026-11-05", to: "2026-11-01" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await owner().audit.actors()).toEqual([
      { userId: a.scope.userId, email: "alpha@example.com" },
      { userId: "alpha-colleague", email: "colleague@example.com" },
    ]);
  });

  it("is refused to editors and support (FORBIDDEN), served to owners and admins", async () => {
    for (const role of ["editor", "support"] as const) {
      const caller = callerFor(ctx, { ...a.scope, role });
      await expect(caller.audit.list({})).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(caller.audit.actors()).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    await expect(callerFor(ctx, { ...a.scope, role: "admin" }).audit.list({})).resolves.toMatchObject({ items: [] });
  });
});
