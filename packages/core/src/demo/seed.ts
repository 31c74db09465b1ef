// The demo data (data.ts), written idempotently: every row has a fixed id and is upserted with
// fixed values, so running the seed twice leaves the same rows. It re-asserts the demo rows'
// defined fields but never touches an agent's key fields, conversations or usage counters.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Database } from "@parley/db";
import { hashPassword, verifyPassword } from "../people/passwords.ts";
import { demoAdmin, demoAgents, demoArticles, demoSources, demoWorkspace } from "./data.ts";

export interface SeedOptions {
  adminEmail: string;
  /** Sets the admin's password (created or existing). Unset: generate one for a new admin only. */
  adminPassword?: string;
  /** The app's own origin (scheme://host[:port]), allowed to embed the demo agent's widget. */
  appOrigin?: string;
}

const DEFAULT_APP_ORIGIN = "http://localhost:3000";

export interface SeedResult {
  /** The password generated for a newly created admin; print it once, it is not stored. */
  generatedPassword?: string;
  adminCreated: boolean;
  /** The admin's email as stored (lower case): what to sign in with. */
  adminEmail: string;
}

export async function seed(db: Database, options: SeedOptions): Promise<SeedResult> {
  const adminEmail = options.adminEmail.trim().toLowerCase();
  const articleBodies = new Map(demoArticles.map((article) => [article.id, readArticleBody(article.id)]));

  // Password hashing is slow on purpose: hash (or check the current hash) before the transaction opens.
  const existingAdmin = await db.prisma.user.findUnique({ where: { id: demoAdmin.id } });
  let generatedPassword: string | undefined;
  let newPasswordHash: string | undefined;
  if (!existingAdmin) {
    generatedPassword = options.adminPassword === undefined ? generatePassword() : undefined;
    newPasswordHash = await hashPassword(options.adminPassword ?? generatedPassword!);
  } else if (options.adminPassword !== undefined && !(await verifyPassword(options.adminPassword, existingAdmin.passwordHash))) {
    newPasswordHash = await hashPassword(options.adminPassword);
  }

  await db.prisma.$transaction(
    async (tx) => {
      const workspaceId = demoWorkspace.id;
      await tx.workspace.upsert({ where: { id: workspaceId }, create: demoWorkspace, update: demoWorkspace });

      const adminFields = { workspaceId, email: adminEmail };
      if (newPasswordHash) {
        await tx.user.upsert({
          where: { id: demoAdmin.id },
          // The seeded admin owns the workspace (a later role change by its people is kept).
          create: { id: demoAdmin.id, name: demoAdmin.name, role: "owner", ...adminFields, passwordHash: newPasswordHash },
          update: { ...adminFields, passwordHash: newPasswordHash },
        });
      } else {
        // The admin exists and keeps its password.
        await tx.user.update({ where: { id: demoAdmin.id }, data: adminFields });
      }

      for (const agent of demoAgents) {
        // Key fields (keyHash, keyLast4, keyCreatedAt) are deliberately absent: keys are made at run time.
        const fields = {
          workspaceId,
          name: agent.name,
          active: agent.active,
          httpApiEnabled: agent.httpApiEnabled,
          monthlyConversationLimit: agent.monthlyConversationLimit,
          monthlyTokenLimit: agent.monthlyTokenLimit,
          usageLimit: null,
          engine: "knowledge" as const,
          instructions: agent.instructions,
          allowedOrigins: agent.allowsAppOrigin
            ? [...new Set([...agent.allowedOrigins, options.appOrigin ?? DEFAULT_APP_ORIGIN])]
            : agent.allowedOrigins,
          createdAt: agent.createdAt,
          updatedAt: agent.createdAt,
        };
        await tx.agent.upsert({ where: { id: agent.id }, create: { id: agent.id, ...fields }, update: fields });
      }

      for (const source of demoSources) {
        const fields = { workspaceId, name: source.name, active: source.active, createdAt: source.createdAt, updatedAt: source.createdAt };
        await tx.source.upsert({ where: { id: source.id }, create: { id: source.id, ...fields }, update: fields });
      }

      // Links between demo agents and demo sources are exactly the table's; links to other
      // agents or sources are left alone.
      const links = demoSources.flatMap((source) =>
        source.agentIds.map((agentId) => ({ agentId, sourceId: source.id, createdAt: source.createdAt })),
      );
      await tx.agentSource.deleteMany({
        where: {
          agentId: { in: demoAgents.map((agent) => agent.id) },
          sourceId: { in: demoSources.map((source) => source.id) },
          NOT: { OR: links.map(({ agentId, sourceId }) => ({ agentId, sourceId })) },
        },
      });
      for (const link of links) {
        await tx.agentSource.upsert({
          where: { agentId_sourceId: { agentId: link.agentId, sourceId: link.sourceId } },
          create: link,
          update: {},
        });
      }

      for (const article of demoArticles) {
        // The demo's help addresses: the id without its prefix (/help/demo/articles/refunds).
        const fields = { ...article, slug: article.id.replace(/^art-/, ""), content: articleBodies.get(article.id)! };
        await tx.article.upsert({ where: { id: article.id }, create: fields, update: fields });
      }
    },
    { maxWait: 30_000, timeout: 60_000 },
  );

  return { generatedPassword, adminCreated: !existingAdmin, adminEmail };
}

/** An article's Markdown, from ./articles beside this file. */
function readArticleBody(id: string): string {
  return readFileSync(new URL(`./articles/${id}.md`, import.meta.url), "utf8").trimEnd();
}

/** 24 characters of base64url: 144 random bits. */
function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}
