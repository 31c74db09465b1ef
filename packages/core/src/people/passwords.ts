// Admin password hashing with scrypt from node:crypto: a slow, memory-hard KDF (a leaked hash is
// expensive to brute-force) whose asynchronous form runs in libuv's thread pool, so a hash never
// stalls the event loop. Parameters are OWASP's N=2^15, r=8, p=3 (32 MiB and a few hundred ms per
// hash). Stored as a PHC string, `$scrypt$ln=15,r=8,p=3$<salt>$<key>` (base64), so the
// parameters can change later. Hashes made by bcrypt (bcryptjs, pure JS on the main thread)
// before still verify; `needsRehash` tells the caller to replace them at the next sign-in.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import bcrypt from "bcryptjs";

interface ScryptParams {
  /** log2 of the CPU/memory cost N. */
  ln: number;
  r: number;
  p: number;
}

const CURRENT: ScryptParams = { ln: 15, r: 8, p: 3 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Bounds for parameters read back from a stored hash (a bad value must not exhaust memory). */
const MAX_LN = 20;
const MAX_R = 32;
const MAX_P = 16;
const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;
const BCRYPT = /^\$2[abxy]\$\d{2}\$/;

function derive(plain: string, salt: Buffer, params: ScryptParams, length: number): Promise<Buffer> {
  const N = 2 ** params.ln;
  // scrypt needs about 128 * N * r bytes; allow that (Node's default cap is 32 MiB).
  const maxmem = 256 * N * params.r;
  return new Promise((resolve, reject) => {
    scrypt(plain, salt, length, { N, r: params.r, p: params.p, maxmem }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const b64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");

export async function hashPassword(plain: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(plain, salt, CURRENT, KEY_BYTES);
  return `$scrypt$ln=${CURRENT.ln},r=${CURRENT.r},p=${CURRENT.p}$${b64(salt)}$${b64(key)}`;
}

function parseScrypt(hash: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const match = PHC.exec(hash);
  if (!match) return null;
  const [ln, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (ln < 1 || ln > MAX_LN || r < 1 || r > MAX_R || p < 1 || p > MAX_P) return null;
  const key = Buffer.from(match[5]!, "base64");
  if (key.length < 16) return null;
  return { params: { ln, r, p }, salt: Buffer.from(match[4]!, "base64"), key };
}

/** True when `plain` matches `hash` (scrypt, or a bcrypt hash of before); false (never throws) for a malformed hash. */
export async function verifyPassword(plain: string, hash: string): Promise<boolean> {
  try {
    const scryptHash = parseScrypt(hash);
    if (scryptHash) {
      const key = await derive(plain, scryptHash.salt, scryptHash.params, scryptHash.key.length);
      return timingSafeEqual(key, scryptHash.key);
    }
    if (BCRYPT.test(hash)) return await bcrypt.compare(plain, hash);
    return false;
  } catch {
    return false;
  }
}

/** True for a hash that is not scrypt with today's parameters (a bcrypt hash of before): replace it once the password is known. */
export function needsRehash(hash: string): boolean {
  const parsed = parseScrypt(hash);
  return !parsed || parsed.params.ln !== CURRENT.ln || parsed.params.r !== CURRENT.r || parsed.params.p !== CURRENT.p;
}
