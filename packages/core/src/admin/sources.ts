// Knowledge-base sources of a workspace and their links to the workspace's agents.
import type { Database } from "@parley/db";
import { z } from "zod";
import { AppError } from "../errors.ts";
import { nameInput } from "./agents.ts";
import { assertAgentsInWorkspace, assertSourceInWorkspace, rowId } from "./scope.ts";

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
  if (!source) throw new AppError("SOURCE_NOT_FOUND");
  return source;
}

export async function createSource(db: Database, workspaceId: string, input: z.infer<typeof createSourceInput>): Promise<SourceSummary> {
  const source = await db.prisma.source.create({ data: { workspaceId, name: input.name }, select: { id: true } });
  return getSource(db, workspaceId, source.id);
}

export async function updateSource(db: Database, workspaceId: string, input: z.infer<typeof updateSourceInput>): Promise<SourceSummary> {
  const { id, ...fields } = input;
  const { count } = await db.prisma.source.updateMany({ where: { id, workspaceId }, data: fields });
  if (count === 0) throw new AppError("SOURCE_NOT_FOUND");
  return getSource(db, workspaceId, id);
}

/** Makes the source's agents exactly `agentIds` (all of the workspace). */
export async function setSourceAgents(
  db: Database,
  workspaceId: string,
  input: z.infer<typeof setSourceAgentsInput>,
): Promise<SourceSummary> {
  await assertSourceInWorkspace(db, workspaceId, input.id);
  await assertAgentsInWorkspace(db, workspaceId, input.agentIds);
  const agentIds = [...new Set(input.agentIds)];
  await db.prisma.$transaction([
    db.prisma.agentSource.deleteMany({ where: { sourceId: input.id, agentId: { notIn: agentIds } } }),
    db.prisma.agentSource.createMany({ data: agentIds.map((agentId) => ({ agentId, sourceId: input.id })), skipDuplicates: true }),
  ]);
  return getSource(db, workspaceId, input.id);
}
