"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import type { Session } from "next-auth";
import { SessionProvider } from "next-auth/react";
import { type ReactNode, useState } from "react";
import { getQueryClient } from "./query-client.ts";
import { TRPCProvider } from "./trpc.ts";
import { createPanelClient } from "./trpc-client.ts";

export function Providers({ session, children }: { session: Session | null; children: ReactNode }) {
  const queryClient = getQueryClient();
  // Same-origin requests carry the next-auth session cookie; the server checks the Origin of writes.
  const [trpcClient] = useState(() => createPanelClient());
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
