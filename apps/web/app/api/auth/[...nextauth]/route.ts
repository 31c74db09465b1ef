import type { AppError } from "@parley/core";
import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { authOptions, signInRefusals } from "~/server/auth.ts";
import { authRouteRequest, withSignInRefusal } from "~/server/auth-request.ts";

const handler = NextAuth(authOptions);

async function authRoute(request: NextRequest, context: { params: Promise<{ nextauth: string[] }> }) {
  const checked = await authRouteRequest(request);
  if (checked instanceof Response) return checked;
  const sign: { refusal?: AppError } = {};
  const response = await signInRefusals.run(sign, () => handler(checked, context));
  return withSignInRefusal(response, sign.refusal);
}

export { authRoute as GET, authRoute as POST };
