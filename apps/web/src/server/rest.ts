// The one wrapper for Parley's public REST routes: request id, error mapping to the spec's error
// body, and no stack trace or secret in any response or log.
import { randomUUID } from "node:crypto";
import type { AppContext } from "@parley/core";
import { AppError, clientIp as clientIpOf, describeError, ERRORS, errorDocsLink, isAppError, logger } from "@parley/core";

/** Header the server entry sets from the socket; any incoming copy is removed there. */
export const CLIENT_IP_HEADER = "x-parley-client-ip";

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/**
 * Maps any thrown value to a response; unknown errors become 500 `Internal error`. Every error
 * links its documentation (`Link: </docs#errors-...>; rel="help"`).
 */
export function errorResponse(error: unknown, headers: Record<string, string> = {}): Response {
  if (isAppError(error)) return json(error.toBody(), error.status, { ...headers, link: errorDocsLink(error.code), ...error.headers });
  logger.error("unhandled error", { error: describeError(error) });
  return json({ error: ERRORS.INTERNAL.message }, ERRORS.INTERNAL.status, { ...headers, link: errorDocsLink("INTERNAL") });
}

/**
 * Runs a route body with a request id; every response (errors included) carries X-Request-Id.
 * `headers` given to the body are added to every response of the route (e.g. Cache-Control).
 */
export async function handle(
  request: Request,
  body: (ctx: { requestId: string }) => Promise<Response>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const requestId = request.headers.get("x-request-id")?.slice(0, 128) || randomUUID();
  let response: Response;
  try {
    response = await body({ requestId });
  } catch (error) {
    response = errorResponse(error, headers);
  }
  response.headers.set("x-request-id", requestId);
  for (const [name, value] of Object.entries(headers)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  return response;
}

/** 405 `Method not allowed` with the methods the route serves in `Allow`. */
export function methodNotAllowed(request: Request, allow: readonly string[]): Promise<Response> {
  return handle(request, async () => {
    throw new AppError("METHOD_NOT_ALLOWED", { headers: { allow: allow.join(", ") } });
  });
}

/** The methods a Next.js route file can export. */
const ROUTE_FILE_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type RouteFileMethod = (typeof ROUTE_FILE_METHODS)[number];

/**
 * Route-file handlers that answer 405 for every method a route file can export but `allow` does not
 * name (Next would answer those with an empty 405, and OPTIONS with a 204).
 */
export function otherMethodsNotAllowed(
  allow: readonly RouteFileMethod[],
): Record<RouteFileMethod, (request: Request) => Promise<Response>> {
  const handler = (request: Request) => methodNotAllowed(request, allow);
  return Object.fromEntries(ROUTE_FILE_METHODS.map((method) => [method, handler])) as Record<
    RouteFileMethod,
    (request: Request) => Promise<Response>
  >;
}

/** The client IP of a request (core's clientIp over the socket's address and X-Forwarded-For). */
export function clientIp(request: Request, trustProxy: AppContext["trustProxy"]): string {
  return clientIpOf(trustProxy, {
    socketAddress: request.headers.get(CLIENT_IP_HEADER),
    forwardedFor: request.headers.get("x-forwarded-for"),
  });
}

export { AppError };
