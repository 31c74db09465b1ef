// PasswordReset round-trips every field through the Prisma client (as roundtrip.test.ts does for
// the others): a link used or not; removing its person removes its links.
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAllFields } from "./support/fields.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.workspace.create({ data: { id: "ws-reset", name: "Resets" } });
  await db.prisma.user.create({ data: { id: "forgetful", workspaceId: "ws-reset", email: "forgetful@example.com", passwordHash: "x" } });
});
afterAll(async () => {
  await db.close();
});

const t = (iso: string) => new Date(iso);

describe("password reset links round-trip every field", () => {
  it("PasswordReset, used or not; removing the person removes them", async () => {
    const open = {
      id: "reset-open",
      userId: "forgetful",
      tokenHash: "a".repeat(64),
      createdAt: t("2026-11-20T12:00:00.001Z"),
      expiresAt: t("2026-11-20T13:00:00.001Z"),
      usedAt: null,
    };
    const used = { ...open, id: "reset-used", tokenHash: "b".repeat(64), usedAt: t("2026-11-20T12:10:00.002Z") };
    for (const reset of [open, used]) {
      await db.prisma.passwordReset.create({ data: reset });
      expectAllFields("PasswordReset", reset, await db.prisma.passwordReset.findUniqueOrThrow({ where: { id: reset.id } }));
    }
    await db.prisma.user.delete({ where: { id: "forgetful" } });
    expect(await db.prisma.passwordReset.count()).toBe(0);
  });
});
