// Admin sign-in for the control panel: next-auth v4 with email + password (Credentials provider) and
// a JWT session cookie that carries the admin's user id and workspace id. The rules (password check,
// throttle, workspace scope) live in @parley/core/admin; this file adapts them to next-auth.
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AdminScope } from "@parley/core/admin/scope";
import { signInAdmin } from "@parley/core/admin/sign-in";
import type { AppContext } from "@parley/core/context";
import { ERRORS, isAppError } from "@parley/core/errors";
import { logger } from "@parley/core/logger";
import { dataDir, type Env, env } from "@parley/db";
import type { NextAuthOptions, User } from "next-auth";
import { getToken } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { getAppContext } from "./context.ts";
import { clientIp } from "./rest.ts";

declare module "next-auth" {
  interface User {
    workspaceId: string;
  }
  interface Session {
    user: { id: string; workspaceId: string; email: string; name: string };
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    userId?: string;
    workspaceId?: string;
  }
}

/** A panel session lasts a week; next-auth renews the cookie while the panel is in use. */
const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;
const SECRET_FILE = "auth-secret";

/**
 * The secret that encrypts session cookies: NEXTAUTH_SECRET, or else one generated once and kept
 * in `<DATA_DIR>/auth-secret` (mode 0600) so sessions survive restarts. Production with a shared
 * PostgreSQL needs the variable (every instance must use the same secret); env.ts refuses to start
 * without it and this repeats the check. The secret is never logged.
 */
export function resolveAuthSecret(config: Pick<Env, "NEXTAUTH_SECRET" | "NODE_ENV" | "DATABASE_URL">, secretFile: string): string {
  if (config.NEXTAUTH_SECRET) return config.NEXTAUTH_SECRET;
  if (config.NODE_ENV === "production" && config.DATABASE_URL) {
    throw new Error("NEXTAUTH_SECRET must be set in production with DATABASE_URL (every instance must use the same secret)");
  }
  const stored = readSecret(secretFile);
  if (stored) return stored;
  mkdirSync(path.dirname(secretFile), { recursive: true });
  try {
    // "wx": of two processes starting together, one writes and the other reads its secret.
    writeFileSync(secretFile, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  chmodSync(secretFile, 0o600);
  const created = readSecret(secretFile);
  if (!created) throw new Error(`${secretFile} does not hold a usable secret (at least 32 characters); delete it to generate a new one`);
  return created;
}

function readSecret(file: string): string | undefined {
  try {
    const value = readFileSync(file, "utf8").trim();
    return value.length >= 32 ? value : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

interface AuthConfig {
  secret: string;
  /** https app URL: cookies get the Secure flag and the `__Secure-` name. */
  secureCookies: boolean;
}

let resolved: AuthConfig | undefined;

/** Read on first use (not at import: `next build` imports this file without a runtime environment). */
function authConfig(): AuthConfig {
  if (!resolved) {
    const config = env();
    // next-auth builds its redirects from process.env.NEXTAUTH_URL alone (else http://localhost:3000).
    process.env.NEXTAUTH_URL ||= config.APP_URL ?? `http://localhost:${config.PORT}`;
    // DATA_DIR as resolved for the embedded database (its parent folder).
    const secretFile = path.join(path.dirname(dataDir()), SECRET_FILE);
    resolved = { secret: resolveAuthSecret(config, secretFile), secureCookies: process.env.NEXTAUTH_URL.startsWith("https://") };
  }
  return resolved;
}

/** The app's secret (also the root of the widget's resume-token key). */
export function authSecret(): string {
  return authConfig().secret;
}

const credentialsSchema = z.record(z.string(), z.unknown());

/**
 * next-auth's `authorize`: the admin for these credentials, or null. While the email and IP (or
 * the IP) are throttled it throws, and next-auth hands that message to the sign-in form.
 */
export async function authorizeCredentials(ctx: AppContext, credentials: unknown, headers: Record<string, unknown>): Promise<User | null> {
  const requestHeaders = new Headers();
  for (const [name, value] of Object.entries(headers)) if (typeof value === "string") requestHeaders.set(name, value);
  const ip = clientIp(new Request(ctx.appUrl, { headers: requestHeaders }), ctx.trustProxy);
  try {
    const admin = await signInAdmin({ db: ctx.db, limiters: ctx.limiters }, credentialsSchema.parse(credentials ?? {}), ip);
    return admin && { id: admin.userId, workspaceId: admin.workspaceId, email: admin.email, name: admin.name };
  } catch (error) {
    if (isAppError(error) && error.code === "SIGN_IN_THROTTLED") throw new Error(error.message);
    // next-auth would put the message in the redirect URL: keep database errors out of it.
    logger.error("sign-in failed", { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    throw new Error(ERRORS.INTERNAL.message);
  }
}

export const authOptions: NextAuthOptions = {
  get secret() {
    return authConfig().secret;
  },
  get useSecureCookies() {
    return authConfig().secureCookies;
  },
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/signin" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      authorize: async (credentials, request) => authorizeCredentials(await getAppContext(), credentials, request.headers ?? {}),
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      // `user` is present only at sign-in: copy the scope into the token once.
      if (user) {
        token.userId = user.id;
        token.workspaceId = user.workspaceId;
      }
      return token;
    },
    session({ session, token }) {
      session.user = {
        id: token.userId ?? "",
        workspaceId: token.workspaceId ?? "",
        email: token.email ?? "",
        name: token.name ?? "",
      };
      return session;
    },
  },
  logger: {
    // next-auth's metadata may carry request details; log codes and messages only.
    error: (code, metadata) => logger.error("next-auth error", { code, message: metadata instanceof Error ? metadata.message : undefined }),
    warn: (code) => logger.warn("next-auth warning", { code }),
    debug: () => {},
  },
};

const tokenSchema = z.object({ userId: z.string().min(1), workspaceId: z.string().min(1) });

/**
 * The admin scope of a request's session cookie, or null (no cookie, expired, tampered with, or
 * made with another secret). Only the cookie counts: next-auth's fallback to an Authorization
 * header is not offered.
 */
export async function readSession(request: Request, options: { secret: string; secureCookie: boolean }): Promise<AdminScope | null> {
  const cookies = new Map<string, string>();
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0) cookies.set(part.slice(0, separator).trim(), safeDecode(part.slice(separator + 1).trim()));
  }
  // getToken reads a Map of cookies (and reassembles chunked ones); `headers` is empty on purpose.
  const token = await getToken({
    req: { cookies, headers: {} } as unknown as Parameters<typeof getToken>[0]["req"],
    secret: options.secret,
    secureCookie: options.secureCookie,
  });
  const parsed = tokenSchema.safeParse(token);
  return parsed.success ? { userId: parsed.data.userId, workspaceId: parsed.data.workspaceId } : null;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The session of a request to a route handler, with the app's secret and cookie settings. */
export function sessionFromRequest(request: Request): Promise<AdminScope | null> {
  const { secret, secureCookies } = authConfig();
  return readSession(request, { secret, secureCookie: secureCookies });
}
