// The operator's `npm run admin -- reset-password EMAIL`: a new password printed once, the old one
// and every session ended; a clear line for an unknown email or a wrong command.

import { createTestContext, type TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_USAGE, runAdminCommand } from "../src/cli/admin-commands.ts";
import { checkSession, signInAdmin, startSession } from "../src/people/index.ts";
import { hashPassword } from "../src/people/passwords.ts";

let ctx: TestContext;
const NOW = new Date("2026-11-20T12:00:00.000Z");

beforeAll(async () => {
  ctx = await createTestContext({ now: () => NOW });
  await ctx.db.prisma.workspace.create({ data: { id: "ws", name: "Workspace" } });
  await ctx.db.prisma.user.create({
    data: { id: "owner", workspaceId: "ws", email: "owner@example.com", passwordHash: await hashPassword("lost password") },
  });
});
afterAll(async () => {
  await ctx.close();
});

describe("npm run admin -- reset-password", () => {
  it("prints a new password once and ends every session of the person", async () => {
    const session = await startSession(ctx.db, { userId: "owner", ip: null, userAgent: null }, NOW);
    const lines = await runAdminCommand(ctx.db, ["reset-password", "Owner@Example.com"], NOW);
    expect(lines[0]).toMatch(/^New password for owner@example\.com: [A-Za-z0-9_-]{24}$/);
    expect(lines.slice(1)).toEqual([
      "It is shown only this once; sign in with it, then change it on the Account page.",
      "1 session of this person ended.",
    ]);
    expect(await checkSession(ctx.db, { sessionId: session.id, userId: "owner" }, NOW)).toBeNull();
    const password = lines[0]!.split(": ")[1]!;
    const limiters = { signIn: ctx.limiters.signIn, signInIp: ctx.limiters.signInIp };
    await expect(signInAdmin({ db: ctx.db, limiters }, { email: "owner@example.com", password }, "192.0.2.1")).resolves.toMatchObject({
      userId: "owner",
    });
    await expect(
      signInAdmin({ db: ctx.db, limiters }, { email: "owner@example.com", password: "lost password" }, "192.0.2.1"),
    ).resolves.toBeNull();
  });

  it("says so for an unknown email, and prints the usage for anything else", async () => {
    await expect(runAdminCommand(ctx.db, ["reset-password", "nobody@example.com"], NOW)).rejects.toThrow(
      "No person has the email address nobody@example.com",
    );
    await expect(runAdminCommand(ctx.db, [], NOW)).rejects.toThrow(ADMIN_USAGE);
    await expect(runAdminCommand(ctx.db, ["reset-password"], NOW)).rejects.toThrow(ADMIN_USAGE);
    await expect(runAdminCommand(ctx.db, ["delete-everything", "a@b.c"], NOW)).rejects.toThrow(ADMIN_USAGE);
  });
});
