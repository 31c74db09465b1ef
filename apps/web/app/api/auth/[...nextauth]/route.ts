import NextAuth from "next-auth";
import { authOptions } from "~/server/auth.ts";
import { authRouteMethodNotAllowed, nextAuthRoute } from "~/server/auth-request.ts";

const authRoute = nextAuthRoute(NextAuth(authOptions));

export {
  authRoute as GET,
  authRoute as POST,
  authRouteMethodNotAllowed as DELETE,
  authRouteMethodNotAllowed as PATCH,
  authRouteMethodNotAllowed as PUT,
};
