// What next-auth's route (app/api/auth/[...nextauth]/route.ts) is handed: next-auth answers a bare
// 500 to two things it is sent before any of its callbacks run, so the route fixes or refuses them
// first.
import { AppError, errorResult } from "@parley/core";
import { NextRequest } from "next/server";
import { safeCallbackUrl } from "~/panel/auth/callback-url.ts";
import { publicAppUrl } from "./context.ts";
import { respond } from "./http/write.ts";

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
