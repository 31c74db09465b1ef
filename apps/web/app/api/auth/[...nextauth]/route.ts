import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { authOptions } from "~/server/auth.ts";
import { authRouteRequest } from "~/server/auth-request.ts";

const handler = NextAuth(authOptions);

async function authRoute(request: NextRequest, context: { params: Promise<{ nextauth: string[] }> }) {
  const checked = await authRouteRequest(request);
  return checked instanceof Response ? checked : handler(checked, context);
}

export { authRoute as GET, authRoute as POST };
