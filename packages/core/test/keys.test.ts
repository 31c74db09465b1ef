// Agent HTTP API keys: format, hash-only storage, constant-time comparison, rotation and
// revocation (spec 2.6, 5). Real database, either mode.
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentKeyMatches, createAgentKeyValue, generateAgentKey, hashAgentKey, revokeAgentKey } from "../src/agents/keys/secrets.ts";
import { AppError } from "../src/platform/errors.ts";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.workspace.createMany({
    data: [
      { id: "ws-a", name: "A" },
      { id: "ws-b", name: "B" },
    ],
  });
  await db.prisma.agent.createMany({
    data: [
      { id: "agent-a", workspaceId: "ws-a", name: "A", httpApiEnabled: true },
      { id: "agent-b", workspaceId: "ws-b", name: "B", httpApiEnabled: true },
    ],
  });
});

afterAll(async () => {
  await db.close();
});

describe("key values", () => {
  it("are pk_ + 32 random bytes in base64url", () => {
    const key = createAgentKeyValue();
    expect(key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice(3), "base64url")).toHaveLength(32);
    expect(createAgentKeyValue()).not.toBe(key);
  });

  it("hash to SHA-256 hex and match only themselves", () => {
    expect(hashAgentKey("pk_abc")).toMatch(/^[0-9a-f]{64}$/);
    // Known vector: SHA-256("abc").
    expect(hashAgentKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const key = createAgentKeyValue();
    expect(agentKeyMatches(key, hashAgentKey(key))).toBe(true);
    expect(agentKeyMatches(`${key}x`, hashAgentKey(key))).toBe(false);
    expect(agentKeyMatches("", hashAgentKey(key))).toBe(false);
    expect(agentKeyMatches(key, "not-a-hash")).toBe(false);
  });
});

describe("generateAgentKey", () => {
  it("stores only the hash, the last 4 characters and the time", async () => {
    const now = new Date("2026-11-20T10:00:00.000Z");
    const generated = await generateAgentKey(db, "agent-a", { now });
    expect(generated.last4).toBe(generated.key.slice(-4));
    expect(generated.createdAt).toEqual(now);
    const row = await db.prisma.agent.findUniqueOrThrow({ where: { id: "agent-a" } });
    expect(row.keyHash).toBe(hashAgentKey(generated.key));
    expect(row.keyLast4).toBe(generated.last4);
    expect(row.keyCreatedAt).toEqual(now);
    expect(JSON.stringify(row)).not.toContain(generated.key);
  });

  it("rotating replaces the hash: the old key no longer matches", async () => {
    const first = await generateAgentKey(db, "agent-a");
    const second = await generateAgentKey(db, "agent-a");
    const row = await db.prisma.agent.findUniqueOrThrow({ where: { id: "agent-a" } });
    expect(agentKeyMatches(second.key, row.keyHash!)).toBe(true);
    expect(agentKeyMatches(first.key, row.keyHash!)).toBe(false);
  });

  it("is AGENT_NOT_FOUND for an unknown agent or one of another workspace", async () => {
    await expect(generateAgentKey(db, "nope")).rejects.toMatchObject({ code: "AGENT_NOT_FOUND" });
    const before = await db.prisma.agent.findUniqueOrThrow({ where: { id: "agent-b" } });
    const error = await generateAgentKey(db, "agent-b", { workspaceId: "ws-a" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("AGENT_NOT_FOUND");
    const after = await db.prisma.agent.findUniqueOrThrow({ where: { id: "agent-b" } });
    expect(after.keyHash).toBe(before.keyHash);
    await expect(generateAgentKey(db, "agent-b", { workspaceId: "ws-b" })).resolves.toMatchObject({ last4: expect.any(String) });
  });
});

describe("revokeAgentKey", () => {
  it("clears the key fields and reports whether a key existed", async () => {
    await generateAgentKey(db, "agent-a");
    await expect(revokeAgentKey(db, "agent-a")).resolves.toEqual({ revoked: true });
    const row = await db.prisma.agent.findUniqueOrThrow({ where: { id: "agent-a" } });
    expect(row).toMatchObject({ keyHash: null, keyLast4: null, keyCreatedAt: null, httpApiEnabled: true });
    await expect(revokeAgentKey(db, "agent-a")).resolves.toEqual({ revoked: false });
  });

  it("is AGENT_NOT_FOUND for an unknown agent or one of another workspace", async () => {
    await generateAgentKey(db, "agent-b");
    await expect(revokeAgentKey(db, "nope")).rejects.toMatchObject({ code: "AGENT_NOT_FOUND" });
    await expect(revokeAgentKey(db, "agent-b", { workspaceId: "ws-a" })).rejects.toMatchObject({ code: "AGENT_NOT_FOUND" });
    const row = await db.prisma.agent.findUniqueOrThrow({ where: { id: "agent-b" } });
    expect(row.keyHash).not.toBeNull();
  });
});
