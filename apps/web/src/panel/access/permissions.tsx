"use client";

// What the signed-in person may do, for hiding the actions they may not use. The map is core's
// table for their role (account.permissions, the rule every procedure enforces), rendered by the
// server with the page and read again when it is older than 30 s and the window regains focus. A
// refusal that still happens (the role changed meanwhile) is shown where the action was tried: the
// server's 403 carries core's readable refusal (errors.ts errorMessage).
import type { Permission, PermissionMap } from "@parley/core/browser";
import { useQuery } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext } from "react";
import { useTRPC } from "../trpc.ts";

const InitialPermissions = createContext<PermissionMap | null>(null);

export function PermissionsProvider({ permissions, children }: { permissions: PermissionMap; children: ReactNode }) {
  return <InitialPermissions.Provider value={permissions}>{children}</InitialPermissions.Provider>;
}

function usePermissionsQuery() {
  const trpc = useTRPC();
  const initial = useContext(InitialPermissions);
  return trpc.account.permissions.queryOptions(undefined, {
    ...(initial ? { initialData: initial } : {}),
    // The server's answer at page load is fresh; a focus after 30 s reads it again.
    staleTime: 30_000,
  });
}

/** `can("inbox.export")`: whether the person's role holds the permission (nothing is allowed until known). */
export function useCan(): (permission: Permission) => boolean {
  const permissions = useQuery(usePermissionsQuery());
  const map = permissions.data;
  return useCallback((permission: Permission) => map?.[permission] === true, [map]);
}

/** Shows its children only when the person may use the permission. */
export function IfCan({ permission, children }: { permission: Permission; children: ReactNode }) {
  return useCan()(permission) ? children : null;
}
