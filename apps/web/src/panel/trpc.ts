// The panel's typed tRPC hooks (TanStack React Query integration of tRPC v11). Only client
// components import this file: createTRPCContext creates a React context.
import type { AppRouter } from "@parley/api";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { createTRPCContext } from "@trpc/tanstack-react-query";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
