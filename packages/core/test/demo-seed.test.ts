import type { Database } from "@parley/db";
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { seed } from "../src/demo/seed.ts";
import { verifyPassword } from "../src/people/passwords.ts";

const ADMIN_EMAIL = "admin@example.com";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
// Every test starts from an empty (migrated) database: every table hangs off Workspace.
beforeEach(async () => {
  await db.execScript(`TRUNCATE "Workspace" CASCADE`);
  expect(await db.query(`SELECT 1 FROM "Agent" UNION ALL SELECT 1 FROM "Article" UNION ALL SELECT 1 FROM "Conversation"`)).toEqual([]);
});
afterAll(async () => {
  await db.close();
});

/** Full dumps of the seeded tables, in a fixed order. */
async function dump(database: Database) {
  return {
    workspaces: await database.query(`SELECT * FROM "Workspace" ORDER BY id`),
    users: await database.query(`SELECT * FROM "User" ORDER BY id`),
    agents: await database.query(`SELECT * FROM "Agent" ORDER BY id`),
    sources: await database.query(`SELECT * FROM "Source" ORDER BY id`),
    links: await database.query(`SELECT * FROM "AgentSource" ORDER BY "agentId", "sourceId"`),
    articles: await database.query(`SELECT * FROM "Article" ORDER BY id`),
  };
}

async function adminHash(database: Database): Promise<string> {
  return (await database.prisma.user.findUniqueOrThrow({ where: { id: "user-admin" } })).passwordHash;
}

describe("seed", () => {
  it("is idempotent: a second run leaves exactly the same rows", async () => {
    await seed(db, { adminEmail: ADMIN_EMAIL });
    const first = await dump(db);
    expect(first.articles).toHaveLength(10);

    await seed(db, { adminEmail: ADMIN_EMAIL });

    expect(await dump(db)).toEqual(first);
  });

  it("creates exactly the demo data's rows", async () => {
    await seed(db, { adminEmail: ADMIN_EMAIL });

    expect(await db.prisma.workspace.findMany()).toMatchObject([{ id: "ws-demo", name: "Demo" }]);
    expect(await db.prisma.user.findMany({ select: { id: true, email: true, workspaceId: true } })).toEqual([
      { id: "user-admin", email: ADMIN_EMAIL, workspaceId: "ws-demo" },
    ]);

    const agents = await db.prisma.agent.findMany({
      orderBy: { id: "asc" },
      select: {
        id: true,
        workspaceId: true,
        active: true,
        httpApiEnabled: true,
        keyHash: true,
        keyLast4: true,
        keyCreatedAt: true,
        monthlyConversationLimit: true,
        monthlyTokenLimit: true,
        usageLimit: true,
        engine: true,
        allowedOrigins: true,
      },
    });
    const agent = (
      id: string,
      active: boolean,
      httpApiEnabled: boolean,
      conversations: number | null,
      tokens: number | null,
      origins: string[] = [],
    ) => ({
      id,
      workspaceId: "ws-demo",
      active,
      httpApiEnabled,
      keyHash: null,
      keyLast4: null,
      keyCreatedAt: null,
      monthlyConversationLimit: conversations,
      monthlyTokenLimit: tokens,
      usageLimit: null,
      engine: "knowledge",
      allowedOrigins: origins,
    });
    expect(agents).toEqual([
      agent("demo", true, true, null, null, ["http://localhost:3000"]),
      agent("demo-disabled", true, false, null, null),
      agent("demo-inactive", false, true, null, null),
      agent("demo-nokey", true, true, null, null),
      agent("demo-quota", true, true, 2, null),
      agent("demo-tokens", true, true, null, 1),
    ]);
    // Names are for people: readable, distinct, not the id.
    const names = (await db.prisma.agent.findMany({ select: { id: true, name: true } })).map((row) => row.name);
    expect(new Set(names).size).toBe(6);
    for (const name of names) expect(name).toMatch(/^[A-Z][\w ()-]+ \w/);

    const sources = await db.prisma.source.findMany({
      orderBy: { id: "asc" },
      select: { id: true, name: true, active: true, workspaceId: true, agents: { select: { agentId: true }, orderBy: { agentId: "asc" } } },
    });
    expect(sources.map((s) => ({ ...s, agents: s.agents.map((link) => link.agentId) }))).toEqual([
      { id: "src-billing", name: "Billing", active: true, workspaceId: "ws-demo", agents: ["demo"] },
      { id: "src-drafts", name: "Drafts", active: true, workspaceId: "ws-demo", agents: ["demo"] },
      { id: "src-internal", name: "Internal notes", active: true, workspaceId: "ws-demo", agents: [] },
      { id: "src-retired", name: "Retired", active: false, workspaceId: "ws-demo", agents: ["demo"] },
      { id: "src-start", name: "Getting started", active: true, workspaceId: "ws-demo", agents: ["demo", "demo-inactive"] },
    ]);
    expect(await db.prisma.agentSource.count()).toBe(5);

    const articles = await db.prisma.article.findMany({
      orderBy: { id: "asc" },
      select: { id: true, sourceId: true, published: true, active: true },
    });
    expect(articles).toEqual([
      { id: "art-api-keys", sourceId: "src-start", published: true, active: true },
      { id: "art-draft-only", sourceId: "src-drafts", published: false, active: true },
      { id: "art-internal", sourceId: "src-internal", published: true, active: true },
      { id: "art-invoices", sourceId: "src-billing", published: true, active: true },
      { id: "art-refunds", sourceId: "src-billing", published: true, active: true },
      { id: "art-reset-password", sourceId: "src-start", published: true, active: true },
      { id: "art-retired", sourceId: "src-retired", published: true, active: true },
      { id: "art-start-archived", sourceId: "src-start", published: true, active: false },
      { id: "art-start-draft", sourceId: "src-start", published: false, active: true },
      { id: "art-welcome", sourceId: "src-start", published: true, active: true },
    ]);
  });

  it("lets only the demo agent's widget run on the app's own origin, given or the default", async () => {
    const origins = async () =>
      await db.prisma.agent.findMany({ where: { allowedOrigins: { isEmpty: false } }, select: { id: true, allowedOrigins: true } });

    await seed(db, { adminEmail: ADMIN_EMAIL, appOrigin: "https://help.example.com" });
    expect(await origins()).toEqual([{ id: "demo", allowedOrigins: ["https://help.example.com"] }]);

    await seed(db, { adminEmail: ADMIN_EMAIL });
    expect(await origins()).toEqual([{ id: "demo", allowedOrigins: ["http://localhost:3000"] }]);
  });

  it("writes real Markdown articles on their topics, with distinct fixed timestamps", async () => {
    await seed(db, { adminEmail: ADMIN_EMAIL });
    const articles = await db.prisma.article.findMany();
    const byId = new Map(articles.map((article) => [article.id, article]));

    for (const article of articles) {
      expect(article.title.length, article.id).toBeGreaterThan(5);
      expect(article.content, article.id).toMatch(/^## /m);
      expect(article.content.split(/\n\s*\n/).length, article.id).toBeGreaterThanOrEqual(4);
      expect(article.publishedAt === null, article.id).toBe(!article.published);
    }
    for (const id of ["art-welcome", "art-reset-password", "art-api-keys", "art-refunds", "art-invoices"]) {
      expect(byId.get(id)!.content.length, id).toBeGreaterThan(1500);
    }
    expect(byId.get("art-welcome")!.title).toMatch(/welcome/i);
    expect(byId.get("art-reset-password")!.title).toMatch(/reset your password/i);
    expect(byId.get("art-reset-password")!.content).toMatch(/Forgot password/);
    expect(byId.get("art-api-keys")!.title).toMatch(/API keys/);
    expect(byId.get("art-api-keys")!.content).toContain("```bash");
    expect(byId.get("art-refunds")!.title).toMatch(/refund/i);
    expect(byId.get("art-invoices")!.title).toMatch(/invoices/i);

    const updatedAt = articles.map((article) => article.updatedAt.getTime());
    expect(new Set(updatedAt).size).toBe(10);
    expect(byId.get("art-welcome")!.updatedAt).toEqual(new Date("2026-09-15T09:00:00.000Z"));
    // Published and active articles of the demo agent's active sources, most recent first.
    const visible = await db.query<{ id: string }>(
      `SELECT a.id FROM "Article" a JOIN "Source" s ON s.id = a."sourceId" JOIN "AgentSource" l ON l."sourceId" = s.id
       WHERE l."agentId" = 'demo' AND s.active AND a.published AND a.active ORDER BY a."updatedAt" DESC, a.id`,
    );
    expect(visible.map((row) => row.id)).toEqual(["art-invoices", "art-api-keys", "art-reset-password", "art-refunds", "art-welcome"]);
  });

  it("writes everything in one transaction: a failure part-way leaves no demo rows", async () => {
    // A real database error on the last table the seed writes.
    await db.execScript(`
      CREATE FUNCTION refuse_article() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'article insert refused'; END $$;
      CREATE TRIGGER refuse_article BEFORE INSERT ON "Article" FOR EACH ROW EXECUTE FUNCTION refuse_article();`);
    try {
      await expect(seed(db, { adminEmail: ADMIN_EMAIL })).rejects.toThrow("article insert refused");
    } finally {
      await db.execScript(`DROP TRIGGER refuse_article ON "Article"; DROP FUNCTION refuse_article();`);
    }
    const counts = await db.query<{ count: number }>(
      `SELECT (SELECT count(*) FROM "Workspace") + (SELECT count(*) FROM "User") + (SELECT count(*) FROM "Agent")
            + (SELECT count(*) FROM "Source") + (SELECT count(*) FROM "AgentSource") + (SELECT count(*) FROM "Article") AS count`,
    );
    expect(Number(counts[0]!.count)).toBe(0);
  });

  it("generates an admin password on the first run only, and it verifies", async () => {
    const first = await seed(db, { adminEmail: ADMIN_EMAIL });
    expect(first.adminCreated).toBe(true);
    expect(first.adminEmail).toBe(ADMIN_EMAIL);
    expect(first.generatedPassword).toMatch(/^[\w-]{24}$/);
    const hash = await adminHash(db);
    expect(hash).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$/);
    expect(await verifyPassword(first.generatedPassword!, hash)).toBe(true);
    expect(await verifyPassword("not-the-password", hash)).toBe(false);

    const second = await seed(db, { adminEmail: ADMIN_EMAIL });
    expect(second).toEqual({ adminCreated: false, adminEmail: ADMIN_EMAIL, generatedPassword: undefined });
    expect(await adminHash(db)).toBe(hash);
  });

  it("sets the password from ADMIN_PASSWORD, on creation and on an existing admin", async () => {
    const created = await seed(db, { adminEmail: ADMIN_EMAIL, adminPassword: "first chosen password" });
    expect(created).toEqual({ adminCreated: true, adminEmail: ADMIN_EMAIL, generatedPassword: undefined });
    expect(await verifyPassword("first chosen password", await adminHash(db))).toBe(true);

    const updated = await seed(db, { adminEmail: ADMIN_EMAIL, adminPassword: "second chosen password" });
    expect(updated).toEqual({ adminCreated: false, adminEmail: ADMIN_EMAIL, generatedPassword: undefined });
    const hash = await adminHash(db);
    expect(await verifyPassword("second chosen password", hash)).toBe(true);
    expect(await verifyPassword("first chosen password", hash)).toBe(false);

    // The same password again, or none, keeps the stored hash as it is.
    await seed(db, { adminEmail: ADMIN_EMAIL, adminPassword: "second chosen password" });
    expect(await adminHash(db)).toBe(hash);
    await seed(db, { adminEmail: ADMIN_EMAIL });
    expect(await adminHash(db)).toBe(hash);
    expect(await db.prisma.user.count()).toBe(1);
  });

  it("stores the admin email in lower case and follows a changed ADMIN_EMAIL", async () => {
    await seed(db, { adminEmail: " Boss@Example.COM " });
    expect((await db.prisma.user.findUniqueOrThrow({ where: { id: "user-admin" } })).email).toBe("boss@example.com");
    const result = await seed(db, { adminEmail: "other@example.com" });
    expect(result.adminCreated).toBe(false);
    expect(await db.prisma.user.findMany({ select: { id: true, email: true } })).toEqual([
      { id: "user-admin", email: "other@example.com" },
    ]);
  });

  it("never touches key fields, conversations or usage, and re-asserts the demo rows' defined fields", async () => {
    await seed(db, { adminEmail: ADMIN_EMAIL });
    const keyFields = { keyHash: "c".repeat(64), keyLast4: "AbC1", keyCreatedAt: new Date("2026-11-20T08:00:00.000Z") };
    await db.prisma.agent.update({
      where: { id: "demo" },
      data: { ...keyFields, name: "Renamed", httpApiEnabled: false, monthlyTokenLimit: 5 },
    });
    await db.prisma.conversation.create({ data: { id: "conv-kept", agentId: "demo", messageCount: 1 } });
    await db.prisma.message.create({ data: { conversationId: "conv-kept", role: "user", text: "Hello", sequence: 0 } });
    await db.prisma.usageMonth.create({ data: { agentId: "demo", month: "2026-11", conversations: 1, tokens: 40, turns: 1 } });
    // A link between two demo rows that the table does not have, and one to a source added at run time.
    await db.prisma.agentSource.create({ data: { agentId: "demo", sourceId: "src-internal" } });
    await db.prisma.source.create({
      data: { id: "src-custom", workspaceId: "ws-demo", name: "Custom", agents: { create: { agentId: "demo" } } },
    });
    await db.prisma.article.update({ where: { id: "art-welcome" }, data: { published: false, title: "Changed" } });
    const conversationsBefore = await db.query(`SELECT * FROM "Conversation" ORDER BY id`);
    const messagesBefore = await db.query(`SELECT * FROM "Message" ORDER BY id`);
    const usageBefore = await db.query(`SELECT * FROM "UsageMonth" ORDER BY "agentId", month`);

    await seed(db, { adminEmail: ADMIN_EMAIL });

    const demo = await db.prisma.agent.findUniqueOrThrow({ where: { id: "demo" } });
    expect(demo).toMatchObject({ ...keyFields, httpApiEnabled: true, monthlyTokenLimit: null });
    expect(demo.name).not.toBe("Renamed");
    expect(await db.query(`SELECT * FROM "Conversation" ORDER BY id`)).toEqual(conversationsBefore);
    expect(await db.query(`SELECT * FROM "Message" ORDER BY id`)).toEqual(messagesBefore);
    expect(await db.query(`SELECT * FROM "UsageMonth" ORDER BY "agentId", month`)).toEqual(usageBefore);
    const demoLinks = await db.prisma.agentSource.findMany({ where: { agentId: "demo" }, orderBy: { sourceId: "asc" } });
    expect(demoLinks.map((link) => link.sourceId)).toEqual(["src-billing", "src-custom", "src-drafts", "src-retired", "src-start"]);
    expect(await db.prisma.article.findUniqueOrThrow({ where: { id: "art-welcome" } })).toMatchObject({
      published: true,
      title: "Welcome to Acme Cloud",
      updatedAt: new Date("2026-09-15T09:00:00.000Z"),
    });
  });
});
