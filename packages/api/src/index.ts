export { OPERATION_PERMISSIONS, roleMayCall } from "./operation-permissions.ts";
export { type AppRouter, appRouter, createCaller } from "./root.ts";
export { createTRPCContext, type PanelSession, type TRPCContext } from "./trpc.ts";
