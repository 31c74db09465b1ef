// A request as Parley's routes read it, whichever server carries it (Node's on the direct path,
// Next's route files otherwise): method, URL, headers, the body as bytes, and a signal that aborts
// when the client leaves. Also what every route takes from a request the same way.
import { randomUUID } from "node:crypto";
import type { HeaderReader } from "@parley/core";
import { clientIp, type TrustProxy } from "@parley/core";
import type { RequestClient } from "@parley/core/people";

/** Header the server entry sets from the socket; any incoming copy is replaced there. */
export const CLIENT_IP_HEADER = "x-parley-client-ip";

export interface HttpRequest {
  method: string;
  url: URL;
  headers: HeaderReader;
  /** Null for GET and HEAD. */
  body: AsyncIterable<Uint8Array> | null;
  signal: AbortSignal;
}

/** A fetch Request (Next's route files, tests) as an HttpRequest. */
export function fromFetchRequest(request: Request): HttpRequest {
  return {
    method: request.method,
    url: new URL(request.url),
    headers: request.headers,
    body: request.body as AsyncIterable<Uint8Array> | null,
    signal: request.signal,
  };
}

/** The client IP (core's clientIp over the socket's address and X-Forwarded-For). */
export function requestClientIp(request: { headers: HeaderReader }, trustProxy: TrustProxy): string {
  return clientIp(trustProxy, {
    socketAddress: request.headers.get(CLIENT_IP_HEADER),
    forwardedFor: request.headers.get("x-forwarded-for"),
  });
}

/** Where a panel request came from, for the audit log: the client IP as above and the User-Agent. */
export function requestClient(request: { headers: HeaderReader }, trustProxy: TrustProxy): RequestClient {
  return { ip: requestClientIp(request, trustProxy), userAgent: request.headers.get("user-agent") ?? "" };
}

/** The caller's X-Request-Id (at most 128 characters), else a new one. */
export function requestId(request: { headers: HeaderReader }): string {
  return request.headers.get("x-request-id")?.slice(0, 128) || randomUUID();
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or null. */
export function bearerToken(header: string | null): string | null {
  const match = header?.match(/^Bearer +(\S+) *$/i);
  return match?.[1] ?? null;
}
