// The whole matrix of panel operations and their permissions, read back from the routers' meta
// (tRPC procedures by path) together with core's session routes (by method and path): what the
// permission tests walk. The procedures themselves check their meta (protectedProcedure).
import { type Permission, type Role, roleMay, SESSION_ROUTE_PERMISSIONS } from "@parley/core/people";
import { appRouter } from "./root.ts";
import type { PanelMeta } from "./trpc.ts";

function procedurePermissions(): Record<string, Permission> {
  // Flat at run time: every procedure by its full path ("sources.list").
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: PanelMeta } }>;
  const entries = Object.entries(procedures).flatMap(([path, procedure]) => {
    const permission = procedure._def.meta?.permission;
    return permission ? [[path, permission] as const] : [];
  });
  return Object.fromEntries(entries);
}

/** The permission of every panel operation: a procedure without one is missing here (and refused). */
export const OPERATION_PERMISSIONS: Readonly<Record<string, Permission>> = { ...procedurePermissions(), ...SESSION_ROUTE_PERMISSIONS };

/** Whether a role may call an operation; an operation without a permission is refused for every role. */
export function roleMayCall(role: Role, operation: string): boolean {
  const permission = Object.hasOwn(OPERATION_PERMISSIONS, operation) ? OPERATION_PERMISSIONS[operation] : undefined;
  return permission !== undefined && roleMay(role, permission);
}
