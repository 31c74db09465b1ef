// Idempotency-Key (Stripe-style): a retried request with the same key and the same body within
// IDEMPOTENCY_TTL_HOURS gets the stored response instead of a second turn; the same key with a
// different body is 409. The record is written in the turn's own transaction, so a turn and its
// record exist together or not at all (a failed turn stores nothing and may be retried).
import { createHash } from "node:crypto";
import { type Database, Prisma } from "@parley/db";
import { AppError } from "../../platform/errors.ts";
import { idempotencyCutoff } from "../../platform/idempotency-records.ts";
import { charCount } from "../../platform/text.ts";
import { CONVERSATIONS_ERRORS } from "../errors.ts";
import { IDEMPOTENCY_KEY_MAX_CHARS } from "../limits.ts";
import { invalidRequest } from "./message-schema.ts";

type Sql = Pick<Database["prisma"], "$queryRaw">;

export interface StoredResponse {
  status: number;
  body: unknown;
}

/** The header's key, undefined when absent; 400 when empty or too long. */
export function parseIdempotencyKey(header: string | null): string | undefined {
  if (header === null) return undefined;
  if (header.trim() === "" || charCount(header) > IDEMPOTENCY_KEY_MAX_CHARS) {
    throw invalidRequest(`Idempotency-Key: must be 1 to ${IDEMPOTENCY_KEY_MAX_CHARS} characters`);
  }
  return header;
}

/** SHA-256 of the validated request in a canonical form (key order and whitespace do not matter). */
export function requestHash(request: unknown): string {
  return createHash("sha256").update(canonicalJson(request)).digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The stored response for this key, if one is still live; 409 if it was for a different request. */
export async function findStoredResponse(
  db: Database,
  agentId: string,
  key: string,
  hash: string,
  now: Date,
): Promise<StoredResponse | null> {
  const record = await db.prisma.idempotencyRecord.findUnique({ where: { agentId_key: { agentId, key } } });
  if (!record || record.createdAt <= idempotencyCutoff(now)) return null;
  if (record.requestHash !== hash) throw new AppError(CONVERSATIONS_ERRORS.IDEMPOTENCY_CONFLICT);
  return { status: record.status, body: record.body };
}

/**
 * Stores the response in the turn's transaction. Returns false when a live record for the key
 * already exists: a concurrent request with the same key finished first (the insert waited for
 * it), and the caller must roll back its turn and answer from that record instead. An expired
 * record is replaced.
 */
export async function storeResponse(
  tx: Sql,
  record: { agentId: string; key: string; hash: string; response: StoredResponse; now: Date },
): Promise<boolean> {
  const at = Prisma.sql`(${record.now.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
  const expired = Prisma.sql`(${idempotencyCutoff(record.now).toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
  const rows = await tx.$queryRaw<Array<{ key: string }>>`
    INSERT INTO "IdempotencyRecord" ("agentId", "key", "requestHash", "status", "body", "createdAt")
    VALUES (${record.agentId}, ${record.key}, ${record.hash}, ${record.response.status}::int,
            ${JSON.stringify(record.response.body)}::jsonb, ${at})
    ON CONFLICT ("agentId", "key") DO UPDATE
      SET "requestHash" = EXCLUDED."requestHash", "status" = EXCLUDED."status",
          "body" = EXCLUDED."body", "createdAt" = EXCLUDED."createdAt"
      WHERE "IdempotencyRecord"."createdAt" <= ${expired}
    RETURNING "key"`;
  return rows.length > 0;
}
