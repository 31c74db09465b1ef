// The retention job's lease round-trips every field through the Prisma client (as
// roundtrip.test.ts does for the others), held and free.
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, it } from "vitest";
import { expectAllFields } from "./support/fields.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

describe("the visitor's data round-trips every field", () => {
  it("JobLease, held by an instance and free", async () => {
    const leases = [
      {
        name: "retention",
        holder: "retention-0a1b2c3d ✓",
        lockedUntil: new Date("2026-11-28T10:00:00.123Z"),
        lastRunAt: new Date("2026-11-28T09:00:00.456Z"),
        runs: 2_147_483_647,
      },
      { name: "never-run", holder: null, lockedUntil: null, lastRunAt: null, runs: 0 },
    ];
    for (const lease of leases) {
      await db.prisma.jobLease.create({ data: lease });
      expectAllFields("JobLease", lease, await db.prisma.jobLease.findUniqueOrThrow({ where: { name: lease.name } }));
    }
  });
});
