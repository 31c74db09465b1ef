import { hashPassword, verifyPassword } from "@parley/db";
import { describe, expect, it } from "vitest";

describe("password hashing", () => {
  it("hashes with bcrypt cost 12, a fresh salt each time, and verifies only the right password", async () => {
    const [first, second] = await Promise.all([hashPassword("correct horse battery"), hashPassword("correct horse battery")]);
    expect(first).toMatch(/^\$2b\$12\$[./A-Za-z0-9]{53}$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword("correct horse battery", first)).toBe(true);
    expect(await verifyPassword("correct horse battery", second)).toBe(true);
    expect(await verifyPassword("correct horse batterY", first)).toBe(false);
    expect(await verifyPassword("", first)).toBe(false);
  });

  it("answers false, without throwing, for a malformed hash", async () => {
    expect(await verifyPassword("anything", "not-a-bcrypt-hash")).toBe(false);
    expect(await verifyPassword("anything", "")).toBe(false);
  });
});
