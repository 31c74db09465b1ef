// Uploaded images round-trip every field through the Prisma client (as roundtrip.test.ts does for
// the others): the bytes exactly, or null when a bucket holds them; one row per workspace and name,
// removed with the workspace; the uploader's removal keeps the image.
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAllFields } from "./support/fields.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.workspace.create({ data: { id: "ws-img", name: "Images" } });
  await db.prisma.user.create({ data: { id: "user-img", workspaceId: "ws-img", email: "img@example.com", passwordHash: "x" } });
});
afterAll(async () => {
  await db.close();
});

const NAME = `${"ab".repeat(32)}.png`;
const key = (workspaceId: string, name: string) => ({ workspaceId_name: { workspaceId, name } });

describe("uploaded images round-trip every field", () => {
  it("UploadedImage: the bytes to the last one, the uploader and the time", async () => {
    const row = {
      workspaceId: "ws-img",
      name: NAME,
      contentType: "image/png",
      size: 4,
      data: new Uint8Array([0x89, 0x00, 0xff, 0x7f]),
      createdById: "user-img",
      createdAt: new Date("2026-12-08T10:00:00.123Z"),
    };
    await db.prisma.uploadedImage.create({ data: row });
    const read = await db.prisma.uploadedImage.findUniqueOrThrow({ where: key("ws-img", NAME) });
    expectAllFields("UploadedImage", row, { ...read, data: new Uint8Array(read.data!) });
  });

  it("null bytes (in a bucket), one row per workspace and name, the uploader's removal keeps it, the workspace's removes it", async () => {
    const other = `${"cd".repeat(32)}.webp`;
    await db.prisma.uploadedImage.create({ data: { workspaceId: "ws-img", name: other, contentType: "image/webp", size: 10, data: null } });
    expect((await db.prisma.uploadedImage.findUniqueOrThrow({ where: key("ws-img", other) })).data).toBeNull();
    await expect(
      db.prisma.uploadedImage.create({ data: { workspaceId: "ws-img", name: NAME, contentType: "image/png", size: 4 } }),
    ).rejects.toThrow();
    await db.prisma.user.delete({ where: { id: "user-img" } });
    expect((await db.prisma.uploadedImage.findUniqueOrThrow({ where: key("ws-img", NAME) })).createdById).toBeNull();
    await db.prisma.workspace.delete({ where: { id: "ws-img" } });
    expect(await db.prisma.uploadedImage.count()).toBe(0);
  });
});
