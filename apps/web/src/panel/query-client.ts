// One QueryClient per browser tab (a fresh one per server render, so requests never share a cache).
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { isClientError, isUnauthorized } from "./errors.ts";

/** A lapsed session makes every procedure UNAUTHORIZED: go to the sign-in page instead of showing errors. */
function redirectWhenSignedOut(error: unknown) {
  if (typeof window === "undefined" || !isUnauthorized(error)) return;
  const callbackUrl = window.location.pathname + window.location.search;
  window.location.assign(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
}

function makeQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: redirectWhenSignedOut }),
    mutationCache: new MutationCache({ onError: redirectWhenSignedOut }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // A 4xx answer will not change on retry (bad input, not found, signed out).
        retry: (failureCount, error) => !isClientError(error) && failureCount < 2,
      },
    },
  });
}

let browserQueryClient: QueryClient | undefined;

export function getQueryClient(): QueryClient {
  if (typeof window === "undefined") return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}
