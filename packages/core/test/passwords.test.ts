import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, verifyPassword } from "../src/people/passwords.ts";

describe("password hashing", () => {
  it("hashes with scrypt (N=2^15, r=8, p=3), a fresh salt each time, and verifies only the right password", async () => {
    const [first, second] = await Promise.all([hashPassword("correct horse battery"), hashPassword("correct horse battery")]);
    expect(first).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword("correct horse battery", first)).toBe(true);
    expect(await verifyPassword("correct horse battery", second)).toBe(true);
    expect(await verifyPassword("correct horse batterY", first)).toBe(false);
    expect(await verifyPassword("", first)).toBe(false);
    expect(needsRehash(first)).toBe(false);
  });

  it("verifies a bcrypt hash made before, and says it needs replacing", async () => {
    const legacy = await bcrypt.hash("old password", 4);
    expect(await verifyPassword("old password", legacy)).toBe(true);
    expect(await verifyPassword("other password", legacy)).toBe(false);
    expect(needsRehash(legacy)).toBe(true);
    expect(needsRehash("$scrypt$ln=14,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U")).toBe(true);
  });

  it("answers false, without throwing, for a malformed hash or parameters out of bounds", async () => {
    expect(await verifyPassword("anything", "not-a-hash")).toBe(false);
    expect(await verifyPassword("anything", "")).toBe(false);
    expect(await verifyPassword("anything", "$scrypt$ln=40,r=8,p=1$c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5")).toBe(false);
    expect(await verifyPassword("anything", "$scrypt$ln=15,r=8,p=3$c2FsdA$a2V5")).toBe(false);
  });
});
