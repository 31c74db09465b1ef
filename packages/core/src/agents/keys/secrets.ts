// Agent HTTP API keys (spec 2.6, 5): `pk_` + 32 random bytes (base64url). Only the SHA-256 hash,
// the last 4 characters and the creation time are stored; the key is shown once and never logged.
// Generating replaces the hash in one UPDATE, so the previous key stops working at once.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Database, Prisma } from "@parley/db";
import { PEOPLE_ERRORS } from "../../people/errors.ts";
import { AppError } from "../../platform/errors.ts";

export const AGENT_KEY_PREFIX = "pk_";
export const AGENT_KEY_RANDOM_BYTES = 32;

export interface GeneratedAgentKey {
  /** The full key: show it once, store it nowhere. */
  key: string;
  last4: string;
  createdAt: Date;
}

/** A fresh key value (no database access). */
export function createAgentKeyValue(): string {
  return AGENT_KEY_PREFIX + randomBytes(AGENT_KEY_RANDOM_BYTES).toString("base64url");
}

/** SHA-256 of the key, hex: what the database stores. */
export function hashAgentKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/**
 * Whether `presented` is the key whose hash is `storedHash`, compared in constant time. Both sides
 * are 32-byte digests, so the comparison time depends on neither the key nor its length.
 */
export function agentKeyMatches(presented: string, storedHash: string): boolean {
  const expected = Buffer.from(storedHash, "hex");
  const actual = createHash("sha256").update(presented, "utf8").digest();
  if (expected.length !== actual.length) return false;
  return timingSafeEqual(actual, expected);
}

interface KeyScope {
  /** Act only on an agent of this workspace (the panel and key routes pass the admin's). */
  workspaceId?: string;
  now?: Date;
}

/**
 * Generates the agent's key, or rotates it: one UPDATE replaces hash, last 4 and creation time, so
 * the old key fails on the very next request. Throws AGENT_NOT_FOUND for an unknown agent (or one of
 * another workspace when `workspaceId` is given).
 */
export async function generateAgentKey(db: Database, agentId: string, scope: KeyScope = {}): Promise<GeneratedAgentKey> {
  return storeAgentKey(db.prisma, agentId, scope);
}

/** The agents table of a client or of a transaction (the panel records the change in the same one). */
export type AgentKeyClient = Pick<Prisma.TransactionClient, "agent">;

/** generateAgentKey within a caller's transaction. */
export async function storeAgentKey(client: AgentKeyClient, agentId: string, scope: KeyScope = {}): Promise<GeneratedAgentKey> {
  const key = createAgentKeyValue();
  const last4 = key.slice(-4);
  const createdAt = scope.now ?? new Date();
  const { count } = await client.agent.updateMany({
    where: { id: agentId, ...(scope.workspaceId ? { workspaceId: scope.workspaceId } : {}) },
    data: { keyHash: hashAgentKey(key), keyLast4: last4, keyCreatedAt: createdAt },
  });
  if (count === 0) throw new AppError(PEOPLE_ERRORS.AGENT_NOT_FOUND);
  return { key, last4, createdAt };
}

/**
 * Revokes the agent's key: the API stays enabled but answers `HTTP API key not configured` until a
 * new key is generated. Returns whether a key existed. Throws AGENT_NOT_FOUND like generateAgentKey.
 */
export async function revokeAgentKey(db: Database, agentId: string, scope: KeyScope = {}): Promise<{ revoked: boolean }> {
  return clearAgentKey(db.prisma, agentId, scope);
}

/** revokeAgentKey within a caller's transaction. */
export async function clearAgentKey(client: AgentKeyClient, agentId: string, scope: KeyScope = {}): Promise<{ revoked: boolean }> {
  const where = { id: agentId, ...(scope.workspaceId ? { workspaceId: scope.workspaceId } : {}) };
  const revoked = await client.agent.updateMany({
    where: { ...where, keyHash: { not: null } },
    data: { keyHash: null, keyLast4: null, keyCreatedAt: null },
  });
  if (revoked.count > 0) return { revoked: true };
  if ((await client.agent.count({ where })) === 0) throw new AppError(PEOPLE_ERRORS.AGENT_NOT_FOUND);
  return { revoked: false };
}
