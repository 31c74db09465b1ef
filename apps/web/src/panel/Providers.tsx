"use client";

import type { AppRouter } from "@parley/api";
import { QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import type { Session } from "next-auth";
import { SessionProvider } from "next-auth/react";
import { type ReactNode, useState } from "react";
import { getQueryClient } from "./query-client.ts";
import { TRPCProvider } from "./trpc.ts";

export function Providers({ session, children }: { session: Session | null; children: ReactNode }) {
  const queryClient = getQueryClient();
  // Same-origin requests carry the next-auth session cookie; the server checks the Origin of writes.
  const [trpcClient] = useState(() => createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: "/api/trpc" })] }));
  return (
    <SessionProvider session={session}>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          {children}
        </TRPCProvider>
      </QueryClientProvider>
    </SessionProvider>
  );
}
