// The audit log, read only: no operation edits or deletes an event (the `audit` router of packages/api).
import { z } from "zod";
import type { PlatformContext } from "../platform/context.ts";
import { id, moment, page } from "../platform/panel-outputs.ts";
import { listAudit, listAuditActors, listAuditInput } from "./audit.ts";
import { panelOperationsOver } from "./panel-operation.ts";

const auditDetailValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]);

export const auditEventOutput = z.object({
  id,
  createdAt: moment,
  actorUserId: id.nullable(),
  actorEmail: z.string(),
  action: z.string(),
  group: z.string().nullable(),
  summary: z.string(),
  targetType: z.string(),
  targetId: id,
  targetLabel: z.string(),
  detail: z.record(z.string(), auditDetailValue),
  ip: z.string(),
  userAgent: z.string(),
});

export const auditPageOutput = page(auditEventOutput);

export const auditActorsOutput = z.array(z.object({ userId: id, email: z.string() }));

const panel = panelOperationsOver<PlatformContext>();

export const auditOperations = {
  list: panel.query({
    permission: "audit.read",
    input: listAuditInput,
    output: auditPageOutput,
    run: ({ app, scope }, input) => listAudit(app.db, scope, input),
  }),
  /** Who appears in the log (the actor filter). */
  actors: panel.query({
    permission: "audit.read",
    output: auditActorsOutput,
    run: ({ app, scope }) => listAuditActors(app.db, scope),
  }),
};
