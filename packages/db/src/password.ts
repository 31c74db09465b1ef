// Admin password hashing. bcrypt is a slow KDF on purpose: cost 12 takes a few hundred
// milliseconds, so a leaked hash is expensive to brute-force. bcryptjs is pure JS (no native build).
import bcrypt from "bcryptjs";

const COST = 12;

export function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, COST);
}

/** True when `plain` matches `hash`; false (never throws) for a malformed hash. */
export async function verifyPassword(plain: string, hash: string): Promise<boolean> {
  try {
    return await bcrypt.compare(plain, hash);
  } catch {
    return false;
  }
}
