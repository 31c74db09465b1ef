// The team's models round-trip every field through the Prisma client (as roundtrip.test.ts does
// for the others), on whichever database mode the run uses; a user created without a role is an
// owner (people who existed before roles), and an invitation outlives its inviter.
import { Role } from "@parley/db";
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAllFields } from "./support/fields.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.workspace.create({ data: { id: "ws-team", name: "Team" } });
  await db.prisma.user.create({ data: { id: "inviter", workspaceId: "ws-team", email: "owner@example.com", passwordHash: "x" } });
});
afterAll(async () => {
  await db.close();
});

const t = (iso: string) => new Date(iso);

describe("team models round-trip every field", () => {
  it("Invitation, used or not; its inviter's removal keeps it", async () => {
    expect(await db.prisma.user.findUniqueOrThrow({ where: { id: "inviter" } })).toMatchObject({ role: "owner", deactivatedAt: null });
    const open = {
      id: "inv-open",
      workspaceId: "ws-team",
      email: "zoë@example.com",
      role: Role.editor,
      tokenHash: "f".repeat(64),
      invitedById: "inviter",
      createdAt: t("2026-11-20T12:00:00.001Z"),
      expiresAt: t("2026-11-27T12:00:00.001Z"),
      acceptedAt: null,
    };
    const used = { ...open, id: "inv-used", role: Role.support, tokenHash: "e".repeat(64), acceptedAt: t("2026-11-21T08:00:00.002Z") };
    for (const invitation of [open, used]) {
      await db.prisma.invitation.create({ data: invitation });
      expectAllFields("Invitation", invitation, await db.prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } }));
    }
    await db.prisma.user.delete({ where: { id: "inviter" } });
    expect(await db.prisma.invitation.findUniqueOrThrow({ where: { id: "inv-open" } })).toMatchObject({ invitedById: null });
  });
});
