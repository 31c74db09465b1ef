// Knowledge-base sources of a workspace and their links to the workspace's agents.
import type { Database } from "@parley/db";
import { z } from "zod";
import { nameInput } from "../agents/agents.ts";
import { recordAudit } from "../people/audit.ts";
import { PEOPLE_ERRORS } from "../people/errors.ts";
import { type AdminScope, assertAgentsInWorkspace, assertSourceInWorkspace, rowId } from "../people/scope.ts";
import { AppError } from "../platform/errors.ts";

export const createSourceInput = z.object({ name: nameInput });
export const updateSourceInput = z.object({ id: rowId, name: nameInput.optional(), active: z.boolean().optional() });
export const setSourceAgentsInput = z.object({ id: rowId, agentIds: z.array(rowId).max(1_000) });

export interface SourceSummary {
  id: string;
  name: string;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
  articleCount: number;
  /** Articles visitors can see: published and active. */
  publishedCount: number;
  agentIds: string[];
}

export async function listSources(db: Database, workspaceId: string, onlyId?: string): Promise<SourceSummary[]> {
  const where = onlyId === undefined ? { workspaceId } : { workspaceId, id: onlyId };
  const [sources, counts] = await Promise.all([
    db.prisma.source.findMany({
      where,
      select: {
        id: true,
        name: true,
        active: true,
        createdAt: true,
        updatedAt: true,
        agents: { select: { agentId: true }, orderBy: { createdAt: "asc" } },
      },
      orderBy: [{ name: "asc" }, { id: "asc" }],
    }),
    db.prisma.article.groupBy({
      by: ["sourceId", "published", "active"],
      where: { source: where },
      _count: { _all: true },
    }),
  ]);
  return sources.map(({ agents, ...source }) => {
    const mine = counts.filter((count) => count.sourceId === source.id);
    return {
      ...source,
      articleCount: mine.reduce((sum, count) => sum + count._count._all, 0),
      publishedCount: mine.filter((count) => count.published && count.active).reduce((sum, count) => sum + count._count._all, 0),
      agentIds: agents.map((link) => link.agentId),
    };
  });
}

async function getSource(db: Database, workspaceId: string, id: string): Promise<SourceSummary> {
  const [source] = await listSources(db, workspaceId, id);
  if (!source) throw new AppError(PEOPLE_ERRORS.SOURCE_NOT_FOUND);
  return source;
}

export async function createSource(db: Database, scope: AdminScope, input: z.infer<typeof createSourceInput>): Promise<SourceSummary> {
  const source = await db.prisma.$transaction(async (tx) => {
    const created = await tx.source.create({ data: { workspaceId: scope.workspaceId, name: input.name }, select: { id: true } });
    await recordAudit(tx, scope, { action: "source.created", targetType: "source", targetId: created.id, targetLabel: input.name });
    return created;
  });
  return getSource(db, scope.workspaceId, source.id);
}

export async function updateSource(db: Database, scope: AdminScope, input: z.infer<typeof updateSourceInput>): Promise<SourceSummary> {
  const { id, ...fields } = input;
  await db.prisma.$transaction(async (tx) => {
    const current = await tx.source.findFirst({ where: { id, workspaceId: scope.workspaceId }, select: { name: true, active: true } });
    if (!current) throw new AppError(PEOPLE_ERRORS.SOURCE_NOT_FOUND);
    await tx.source.update({ where: { id }, data: fields });
    const changed = (["name", "active"] as const).filter((name) => fields[name] !== undefined && fields[name] !== current[name]);
    if (changed.length === 0) return;
    await recordAudit(tx, scope, {
      action: "source.updated",
      targetType: "source",
      targetId: id,
      targetLabel: fields.name ?? current.name,
      detail: { fields: changed, ...(changed.includes("name") ? { previousName: current.name } : {}) },
    });
  });
  return getSource(db, scope.workspaceId, id);
}

/** Makes the source's agents exactly `agentIds` (all of the workspace). */
export async function setSourceAgents(
  db: Database,
  scope: AdminScope,
  input: z.infer<typeof setSourceAgentsInput>,
): Promise<SourceSummary> {
  const { workspaceId } = scope;
  await assertSourceInWorkspace(db, workspaceId, input.id);
  await assertAgentsInWorkspace(db, workspaceId, input.agentIds);
  const agentIds = [...new Set(input.agentIds)];
  await db.prisma.$transaction(async (tx) => {
    await tx.agentSource.deleteMany({ where: { sourceId: input.id, agentId: { notIn: agentIds } } });
    await tx.agentSource.createMany({ data: agentIds.map((agentId) => ({ agentId, sourceId: input.id })), skipDuplicates: true });
    const { name } = await tx.source.findUniqueOrThrow({ where: { id: input.id }, select: { name: true } });
    await recordAudit(tx, scope, {
      action: "source.agents.linked",
      targetType: "source",
      targetId: input.id,
      targetLabel: name,
      detail: { agentIds: [...agentIds].sort() },
    });
  });
  return getSource(db, workspaceId, input.id);
}
