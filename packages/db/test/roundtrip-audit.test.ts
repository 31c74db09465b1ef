// The audit log's model round-trips every field through the Prisma client, on whichever database
// mode the run uses; an event outlives its actor (the email at the time stays) and a detail-less
// event stores an empty object.
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAllFields } from "./support/fields.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.workspace.create({ data: { id: "ws-audit", name: "Audit" } });
  await db.prisma.user.create({ data: { id: "actor", workspaceId: "ws-audit", email: "ada@example.com", passwordHash: "x" } });
});
afterAll(async () => {
  await db.close();
});

describe("AuditEvent round-trips every field", () => {
  it("with its detail, IP and user agent; the actor's removal keeps the event and its email", async () => {
    const event = {
      id: "audit-1",
      workspaceId: "ws-audit",
      actorUserId: "actor",
      actorEmail: "ada@example.com",
      action: "agent.updated",
      targetType: "agent",
      targetId: "acme",
      targetLabel: "Acme Support ✓",
      detail: { fields: ["instructions", "name"], count: 2, draft: false, note: null },
      ip: "2001:db8::1",
      userAgent: "Mozilla/5.0 (X11; Linux x86_64)",
      createdAt: new Date("2026-11-28T10:00:00.123Z"),
    };
    await db.prisma.auditEvent.create({ data: event });
    expectAllFields("AuditEvent", event, await db.prisma.auditEvent.findUniqueOrThrow({ where: { id: event.id } }));

    await db.prisma.user.delete({ where: { id: "actor" } });
    expect(await db.prisma.auditEvent.findUniqueOrThrow({ where: { id: event.id } })).toMatchObject({
      actorUserId: null,
      actorEmail: "ada@example.com",
    });
  });

  it("defaults: an empty detail and user agent, the creation time", async () => {
    const row = await db.prisma.auditEvent.create({
      data: {
        workspaceId: "ws-audit",
        actorEmail: "operator (command line)",
        action: "account.password.reset",
        targetType: "person",
        targetId: "p1",
        targetLabel: "bo@example.com",
        ip: "local",
      },
    });
    expect(row).toMatchObject({ detail: {}, userAgent: "", actorUserId: null });
    expect(row.createdAt).toBeInstanceOf(Date);
  });
});
