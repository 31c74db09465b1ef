// The workspace boundary of the control panel. Every admin operation names the admin's workspace;
// a row of another workspace is reported exactly like a missing one, so it is never visible.
import type { Database } from "@parley/db";
import { z } from "zod";
import { AppError } from "../platform/errors.ts";
import { PEOPLE_ERRORS } from "./errors.ts";

/** The roles of a workspace's people (permissions.ts says what each may do). */
export const ROLES = ["owner", "admin", "editor", "support"] as const;
export type Role = (typeof ROLES)[number];

/** The signed-in admin's scope, taken from the session (never from the request input). */
export interface AdminScope {
  userId: string;
  workspaceId: string;
  /** As the database has it at this request (a changed role applies at once). */
  role: Role;
  /** Where the request came from, for the audit log (the panel's tRPC context and the session routes set it). */
  client?: RequestClient;
}

/** The request's client IP (core's clientIp, trust-proxy applied) and User-Agent. */
export interface RequestClient {
  ip: string;
  userAgent: string;
}

/** Ids arrive from the browser: any short non-empty string, looked up inside the workspace. */
export const rowId = z.string().trim().min(1).max(200);

export async function assertSourceInWorkspace(db: Database, workspaceId: string, sourceId: string): Promise<void> {
  const source = await db.prisma.source.findFirst({ where: { id: sourceId, workspaceId }, select: { id: true } });
  if (!source) throw new AppError(PEOPLE_ERRORS.SOURCE_NOT_FOUND);
}

/** Throws AGENT_NOT_FOUND unless every id names an agent of the workspace. */
export async function assertAgentsInWorkspace(db: Database, workspaceId: string, agentIds: readonly string[]): Promise<void> {
  const unique = [...new Set(agentIds)];
  if (unique.length === 0) return;
  const found = await db.prisma.agent.count({ where: { id: { in: unique }, workspaceId } });
  if (found !== unique.length) throw new AppError(PEOPLE_ERRORS.AGENT_NOT_FOUND);
}
