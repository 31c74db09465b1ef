import type { Database } from "@parley/db";

/** True when the database answers a trivial query within `timeoutMs`. */
export async function databaseIsHealthy(getDb: () => Promise<Database>, timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const check = (async () => {
    const db = await getDb();
    await db.query("SELECT 1");
    return true as const;
  })().catch(() => false as const);
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
