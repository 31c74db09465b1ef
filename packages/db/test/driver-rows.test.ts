// db.rows runs a Prisma.sql statement on the driver (the help centre's reads): it must read and
// write timestamps as Prisma does (UTC wall time in the column), whatever the process's time zone,
// and give the same values as $queryRaw for the column types Parley reads, prepared or not.
import { Prisma } from "@parley/db";
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let db: TestDatabase;
const originalTimeZone = process.env.TZ;
beforeAll(async () => {
  // Far from UTC, so a local-time reading would be hours off.
  process.env.TZ = "Pacific/Kiritimati";
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
  process.env.TZ = originalTimeZone;
});

describe("db.rows", () => {
  const createdAt = new Date("2026-03-04T05:06:07.089Z");

  it("reads a timestamp written by Prisma as the same instant, and finds it by a Date parameter", async () => {
    await db.prisma.workspace.create({ data: { id: "ws-rows", name: "Rows", createdAt } });
    const rows = await db.rows<{ id: string; createdAt: Date }>(
      Prisma.sql`SELECT "id", "createdAt" FROM "Workspace" WHERE "createdAt" = ${createdAt}`,
    );
    expect(rows).toEqual([{ id: "ws-rows", createdAt }]);
    // What the column holds is UTC wall time, as Prisma wrote it.
    const [text] = await db.rows<{ text: string }>(
      Prisma.sql`SELECT "createdAt"::text AS "text" FROM "Workspace" WHERE "id" = ${"ws-rows"}`,
    );
    expect(text?.text).toBe("2026-03-04 05:06:07.089");
  });

  it("gives what $queryRaw gives for text, int, float, boolean, null and timestamp columns", async () => {
    const statement = Prisma.sql`
      SELECT w."id", w."name", count(*)::int AS "count", 0.25::real AS "rank", true AS "complete",
             NULL::text AS "nothing", max(w."createdAt") AS "latest"
      FROM "Workspace" w WHERE w."id" = ${"ws-rows"} GROUP BY w."id", w."name"`;
    const viaDriver = await db.rows(statement);
    const viaPrisma = await db.prisma.$queryRaw(statement);
    expect(viaDriver).toEqual([{ id: "ws-rows", name: "Rows", count: 1, rank: 0.25, complete: true, nothing: null, latest: createdAt }]);
    expect(viaDriver).toEqual(viaPrisma);
  });
});

describe("db.rows, prepared", () => {
  it("gives the same rows as an unprepared run, for each value and after the data changed", async () => {
    await db.prisma.workspace.createMany({
      data: [
        { id: "ws-prep-1", name: "One" },
        { id: "ws-prep-2", name: "Two" },
      ],
    });
    const byId = (id: string) => Prisma.sql`SELECT "id", "name" FROM "Workspace" WHERE "id" = ${id}`;
    // More runs than PostgreSQL makes before it may switch a prepared statement to a generic plan.
    for (let run = 0; run < 8; run++) {
      for (const id of ["ws-prep-1", "ws-prep-2", "ws-none"]) {
        expect(await db.rows(byId(id), { prepared: true }), `${id}, run ${run}`).toEqual(await db.rows(byId(id)));
      }
    }
    await db.prisma.workspace.update({ where: { id: "ws-prep-2" }, data: { name: "Renamed" } });
    expect(await db.rows(byId("ws-prep-2"), { prepared: true })).toEqual([{ id: "ws-prep-2", name: "Renamed" }]);
    // Another text under the prepared option is its own statement, never confused with the first.
    const names = await db.rows(Prisma.sql`SELECT "name" FROM "Workspace" WHERE "id" = ${"ws-prep-1"}`, { prepared: true });
    expect(names).toEqual([{ name: "One" }]);
  });
});
