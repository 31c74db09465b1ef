import { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { safeCallbackUrl } from "~/panel/auth/callback-url.ts";
import { authOptions } from "~/server/auth.ts";
import { publicAppUrl } from "~/server/context.ts";

const handler = NextAuth(authOptions);

/**
 * next-auth answers a 500 to a callbackUrl query parameter that is neither an http(s) URL nor a
 * path, before its redirect callback runs: it gets the value the sign-in rule allows instead.
 */
function withSafeCallbackUrl(request: NextRequest): NextRequest {
  const value = request.nextUrl.searchParams.get("callbackUrl");
  if (value === null) return request;
  const url = request.nextUrl.clone();
  url.searchParams.set("callbackUrl", safeCallbackUrl(value, publicAppUrl()));
  const init: NonNullable<ConstructorParameters<typeof NextRequest>[1]> & { duplex?: "half" } = {
    method: request.method,
    headers: request.headers,
  };
  if (request.body) {
    init.body = request.body;
    init.duplex = "half";
  }
  return new NextRequest(url, init);
}

function authRoute(request: NextRequest, context: { params: Promise<{ nextauth: string[] }> }) {
  return handler(withSafeCallbackUrl(request), context);
}

export { authRoute as GET, authRoute as POST };
