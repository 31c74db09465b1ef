// next-auth's route (app/api/auth/[...nextauth]/route.ts) around next-auth: what next-auth is
// handed (it answers a bare 500 to two things it is sent before any of its callbacks run, so the
// route fixes or refuses them first), and what its answers become (a throttled sign-in's 429, and
// every error in the API's error body, where next-auth answers plain text or HTML).
import { AppError, errorResult, methodNotAllowedResult, PLATFORM_ERRORS, type PlatformErrorCode } from "@parley/core";
import { NextRequest } from "next/server";
import { safeCallbackUrl } from "~/panel/auth/callback-url.ts";
import { signInRefusals } from "./auth.ts";
import { publicAppUrl } from "./context.ts";
import { respond } from "./http/write.ts";

/** What NextAuth(options) makes for the App Router. */
export type NextAuthHandler = (request: NextRequest, context: { params: Promise<{ nextauth: string[] }> }) => Promise<Response>;

/** The methods next-auth's routes serve. */
export const AUTH_ROUTE_METHODS = ["GET", "POST"] as const;

/** The route's GET and POST: `handler` (next-auth) between the request checks and the answer fixes below. */
export function nextAuthRoute(handler: NextAuthHandler): NextAuthHandler {
  return async (request, context) => {
    const checked = await authRouteRequest(request);
    if (checked instanceof Response) return checked;
    const sign: { refusal?: AppError } = {};
    const response = await signInRefusals.run(sign, () => handler(checked, context));
    return withApiErrorBody(request, withSignInRefusal(response, sign.refusal), sign.refusal);
  };
}

/** Any other method: 405 in the error body with Allow (Next's own 405 has no body). */
export function authRouteMethodNotAllowed(request: Request): Response {
  return respond(request, methodNotAllowedResult(AUTH_ROUTE_METHODS));
}

/**
 * The request for next-auth, or the answer when it must not reach it: a callbackUrl query parameter
 * that is neither an http(s) URL nor a path gets the value the sign-in rule allows; a JSON body
 * (next-auth parses any content type that mentions application/json) that does not parse gets the
 * API's 400.
 */
export async function authRouteRequest(request: NextRequest): Promise<NextRequest | Response> {
  const url = request.nextUrl.clone();
  const callbackUrl = url.searchParams.get("callbackUrl");
  if (callbackUrl !== null) url.searchParams.set("callbackUrl", safeCallbackUrl(callbackUrl, publicAppUrl()));
  let body: string | null = null;
  if (request.method === "POST" && request.body && request.headers.get("content-type")?.includes("application/json")) {
    // The body is at most AUTH_BODY_MAX_BYTES (the server entry's cap): read whole, parsed once here.
    body = await request.text();
    if (!parsesAsJson(body)) return respond(request, errorResult(new AppError("INVALID_REQUEST", { details: "body: must be valid JSON" })));
  }
  if (callbackUrl === null && body === null) return request;
  const init: NonNullable<ConstructorParameters<typeof NextRequest>[1]> & { duplex?: "half" } = {
    method: request.method,
    headers: request.headers,
  };
  if (body !== null) init.body = body;
  else if (request.body) {
    init.body = request.body;
    init.duplex = "half";
  }
  return new NextRequest(url, init);
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * next-auth's answer to a sign-in that core refused (the throttle, SIGN_IN_THROTTLED): next-auth
 * says every refusal with 401, so its JSON answer (the panel's form, `json=true`) gets the
 * refusal's status and headers (429 and Retry-After), its body (the error's URL) unchanged. A
 * redirect (a form posted without script) stays a redirect, with the headers.
 */
export function withSignInRefusal(response: Response, refusal: AppError | undefined): Response {
  if (!refusal) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(refusal.headers)) headers.set(name, value);
  const status = response.status === 401 ? refusal.status : response.status;
  return new Response(response.body, { status, statusText: "", headers });
}

/** The API's own error of a status next-auth answers an error with (the first platform error of that status); any other is a 500. */
function platformErrorOf(status: number): PlatformErrorCode {
  const code = (Object.keys(PLATFORM_ERRORS) as PlatformErrorCode[]).find((name) => PLATFORM_ERRORS[name].status === status);
  return code ?? "INTERNAL";
}

// next-auth's 400s: an action it does not have (or not by this method), a callback of a provider
// that does not exist, an update of the session without its CSRF token.
const NEXT_AUTH_400_DETAILS = "not a sign-in action of /api/auth/ by this method, or no valid csrfToken";

/**
 * next-auth's error answers (status 400 and up) in the API's error body, with the same status and
 * headers (cookies included): next-auth answers some in plain text ("Error: This action with HTTP
 * GET is not supported by NextAuth.js", "[object Object]"), some as HTML pages (its error page's
 * 403 and 500) or JSON of its own. Its JSON answer to a sign-in form (`{ url }`, 401 or the
 * throttle's 429) keeps its `url`, which next-auth's client reads, and gains `error`. Answers below
 * 400 (sign-ins, redirects, its pages) and the API's own errors pass unchanged.
 */
export async function withApiErrorBody(request: Request, response: Response, refusal?: AppError): Promise<Response> {
  if (response.status < 400) return response;
  const json = response.headers.get("content-type")?.includes("application/json") ? await readJson(response.clone()) : undefined;
  if (typeof json?.error === "string") return response;
  const code = platformErrorOf(response.status);
  const error = refusal ?? new AppError(code, code === "INVALID_REQUEST" ? { details: NEXT_AUTH_400_DETAILS } : {});
  const result = errorResult(error);
  const body = typeof json?.url === "string" ? { ...error.toBody(), url: json.url } : error.toBody();
  const answer = respond(request, { ...result, status: response.status, json: body });
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  for (const [name, value] of answer.headers) headers.set(name, value);
  return new Response(request.method === "HEAD" ? null : answer.body, { status: response.status, headers });
}

async function readJson(response: Response): Promise<Record<string, unknown> | undefined> {
  try {
    const value: unknown = await response.json();
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
