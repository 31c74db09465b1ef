// Fixtures for procedure tests: two workspaces, each with an admin, an agent, a source and an
// article, and a caller acting as either admin (or as nobody) through createCaller.
import type { AdminScope, RequestClient } from "@parley/core/people";
import { createTestContext, type TestContext } from "@parley/testing/context";
import { createCaller, createTRPCContext, type PanelSession } from "../src/index.ts";

export interface Workspace {
  scope: AdminScope;
  agentId: string;
  sourceId: string;
  articleId: string;
}

/** 2026-11-20 12:00 UTC: tests that depend on the month or day pass this as the context's clock. */
export const NOW = new Date("2026-11-20T12:00:00.000Z");

export async function createWorkspace(ctx: TestContext, prefix: string): Promise<Workspace> {
  const workspace = await ctx.db.prisma.workspace.create({ data: { id: `${prefix}-ws`, name: prefix } });
  const user = await ctx.db.prisma.user.create({
    data: { id: `${prefix}-admin`, workspaceId: workspace.id, email: `${prefix}@example.com`, passwordHash: "unused" },
  });
  const agent = await ctx.db.prisma.agent.create({ data: { id: `${prefix}-agent`, workspaceId: workspace.id, name: `${prefix} agent` } });
  const source = await ctx.db.prisma.source.create({
    data: { id: `${prefix}-source`, workspaceId: workspace.id, name: `${prefix} source` },
  });
  await ctx.db.prisma.agentSource.create({ data: { agentId: agent.id, sourceId: source.id } });
  const article = await ctx.db.prisma.article.create({
    data: { id: `${prefix}-article`, sourceId: source.id, title: `${prefix} article`, content: "Body", published: true, publishedAt: NOW },
  });
  return {
    scope: { userId: user.id, workspaceId: workspace.id, role: "owner" },
    agentId: agent.id,
    sourceId: source.id,
    articleId: article.id,
  };
}

/** A caller with this session (null: signed out); `sameOrigin: false` plays a cross-site request; `client` the request's IP and User-Agent. */
export function callerFor(ctx: TestContext, session: PanelSession | null, options: { sameOrigin?: boolean; client?: RequestClient } = {}) {
  return createCaller(createTRPCContext({ ctx, session, sameOrigin: options.sameOrigin ?? true, client: options.client }));
}

export async function setup(): Promise<{ ctx: TestContext; a: Workspace; b: Workspace }> {
  const ctx = await createTestContext({ now: () => NOW });
  const a = await createWorkspace(ctx, "alpha");
  const b = await createWorkspace(ctx, "beta");
  return { ctx, a, b };
}
