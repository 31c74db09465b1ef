export { type AppRouter, appRouter, createCaller } from "./root.ts";
export { createTRPCContext, type TRPCContext } from "./trpc.ts";
