// Admin sign-in for the control panel: next-auth v4 with email + password (Credentials provider) and
// a JWT session cookie that carries the admin's user id, workspace id and session id. The session
// itself lives in the database (packages/core/src/people/sessions.ts): started at sign-in, checked on every
// authenticated request (readSession: route handlers, tRPC, the panel's pages; and next-auth's own
// session endpoint), ended at sign-out. The rules (password check, throttle, workspace scope,
// sessions) live in @parley/core/people; this file adapts them to next-auth.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AppContext } from "@parley/core";
import { type AppError, describeError, ERRORS, type HeaderReader, isAppError, logger } from "@parley/core";
import { checkSession, endSession, type SessionAdmin, signInAdmin, startSession } from "@parley/core/people";
import { SESSION_IDLE_SECONDS } from "@parley/core/people/limits";
import { type Database, dataDir } from "@parley/db";
import { cookies } from "next/headers";
import type { NextAuthOptions, User } from "next-auth";
import { getToken } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { type AppEnv, appEnv } from "../env.ts";
import { safeCallbackUrl } from "../panel/auth/callback-url.ts";
import { publicUrl } from "../site.ts";
import { getAppContext } from "./context.ts";
import { requestClientIp } from "./http/request.ts";

declare module "next-auth" {
  interface User {
    workspaceId: string;
    sessionId: string;
  }
  interface Session {
    user: { id: string; workspaceId: string; email: string; name: string };
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    userId?: string;
    workspaceId?: string;
    sessionId?: string;
  }
}

const SECRET_FILE = "auth-secret";

/**
 * The secret that encrypts session cookies: NEXTAUTH_SECRET, or else one generated once and kept
 * in `<DATA_DIR>/auth-secret` (mode 0600) so sessions survive restarts. Production with a shared
 * PostgreSQL needs the variable (every instance must use the same secret): the settings refuse to
 * start without it (src/env.ts). The secret is never logged.
 */
export function resolveAuthSecret(config: Pick<AppEnv, "NEXTAUTH_SECRET">, secretFile: string): string {
  if (config.NEXTAUTH_SECRET) return config.NEXTAUTH_SECRET;
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
    const config = appEnv();
    // DATA_DIR as resolved for the embedded database (its parent folder).
    const secretFile = path.join(path.dirname(dataDir()), SECRET_FILE);
    resolved = { secret: resolveAuthSecret(config, secretFile), secureCookies: nextAuthUrl(config).startsWith("https://") };
  }
  return resolved;
}

/** The URL next-auth builds its redirects with: NEXTAUTH_URL, else the public app URL. */
export function nextAuthUrl(config: Pick<AppEnv, "NEXTAUTH_URL" | "APP_URL" | "PORT">): string {
  return config.NEXTAUTH_URL ?? publicUrl(config);
}

/** The app's secret (also the root of the widget's resume-token key). */
export function authSecret(): string {
  return authConfig().secret;
}

const credentialsSchema = z.record(z.string(), z.unknown());

/** The refusal of the sign-in a request to next-auth's route made, for that route to answer it (see authorizeCredentials). */
export const signInRefusals = new AsyncLocalStorage<{ refusal?: AppError }>();

/**
 * next-auth's `authorize`: the admin for these credentials, or null. While the email and IP (or
 * the IP) are throttled it throws, and next-auth hands that message to the sign-in form.
 */
export async function authorizeCredentials(ctx: AppContext, credentials: unknown, headers: Record<string, unknown>): Promise<User | null> {
  const requestHeaders = new Headers();
  for (const [name, value] of Object.entries(headers)) if (typeof value === "string") requestHeaders.set(name, value);
  const ip = requestClientIp({ headers: requestHeaders }, ctx.trustProxy);
  try {
    const admin = await signInAdmin({ db: ctx.db, limiters: ctx.limiters }, credentialsSchema.parse(credentials ?? {}), ip);
    if (!admin) return null;
    const session = await startSession(ctx.db, { userId: admin.userId, ip, userAgent: requestHeaders.get("user-agent") }, ctx.now());
    return { id: admin.userId, workspaceId: admin.workspaceId, email: admin.email, name: admin.name, sessionId: session.id };
  } catch (error) {
    if (isAppError(error) && error.code === "SIGN_IN_THROTTLED") {
      // next-auth answers any thrown refusal 401: the route around it answers core's 429 and Retry-After.
      const store = signInRefusals.getStore();
      if (store) store.refusal = error;
      throw new Error(error.message);
    }
    // next-auth would put the message in the redirect URL: keep database errors out of it.
    logger.error("sign-in failed", { error: describeError(error) });
    throw new Error(ERRORS.INTERNAL.message);
  }
}

/** Thrown by the jwt callback for a cookie whose session has ended: next-auth then clears the cookie. */
class SessionEndedError extends Error {
  constructor() {
    super("The session has ended");
    this.name = "SessionEndedError";
  }
}

/** next-auth's options over an app context (the app's own, or a test's). */
export function createAuthOptions(context: () => Promise<AppContext>): NextAuthOptions {
  return {
    get secret() {
      return authConfig().secret;
    },
    get useSecureCookies() {
      return authConfig().secureCookies;
    },
    // The cookie lasts as long as an idle session; next-auth renews it while the panel is in use.
    session: { strategy: "jwt", maxAge: SESSION_IDLE_SECONDS },
    pages: { signIn: "/signin" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
        },
        authorize: async (credentials, request) => authorizeCredentials(await context(), credentials, request.headers ?? {}),
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        // `user` is present only at sign-in: copy the scope and the session into the token once.
        if (user) {
          token.userId = user.id;
          token.workspaceId = user.workspaceId;
          token.sessionId = user.sessionId;
          return token;
        }
        // Any later use (next-auth's session endpoint) needs the session to be live.
        const ctx = await context();
        const live =
          token.sessionId && token.userId && (await checkSession(ctx.db, { sessionId: token.sessionId, userId: token.userId }, ctx.now()));
        if (!live) throw new SessionEndedError();
        return token;
      },
      // Every callbackUrl next-auth is given (sign-in, sign-out, its callback-url cookie) follows the
      // sign-in page's rule: a path of this site, else the panel.
      redirect({ url, baseUrl }) {
        return `${new URL(baseUrl).origin}${safeCallbackUrl(url, baseUrl)}`;
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
    events: {
      // Sign-out ends the session in the database, for every instance at once.
      async signOut({ token }) {
        if (!token?.sessionId) return;
        const ctx = await context();
        await endSession(ctx.db, token.sessionId, ctx.now());
      },
    },
    logger: {
      // next-auth's metadata may carry request details; log codes and messages only. A cookie of an
      // ended session is routine, not an error.
      error: (code, metadata) => {
        if (metadata instanceof SessionEndedError) return;
        logger.error("next-auth error", { code, message: metadata instanceof Error ? describeError(metadata) : undefined });
      },
      warn: (code) => logger.warn("next-auth warning", { code }),
      debug: () => {},
    },
  };
}

export const authOptions: NextAuthOptions = createAuthOptions(getAppContext);

const tokenSchema = z.object({ userId: z.string().min(1), workspaceId: z.string().min(1), sessionId: z.string().min(1) });

/**
 * The admin of a request's session cookie, or null: no cookie, expired, tampered with, made with
 * another secret, or its session ended (checked in the database on every call). Only the cookie
 * counts: next-auth's fallback to an Authorization header is not offered.
 */
export async function readSession(
  request: { headers: HeaderReader },
  options: { secret: string; secureCookie: boolean; db: Database; now: Date },
): Promise<SessionAdmin | null> {
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
  if (!parsed.success) return null;
  return checkSession(options.db, { sessionId: parsed.data.sessionId, userId: parsed.data.userId }, options.now);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The session of a request to a route handler, with the app's secret, cookie settings and database. */
export async function sessionFromRequest(request: { headers: HeaderReader }): Promise<SessionAdmin | null> {
  const { secret, secureCookies } = authConfig();
  const ctx = await getAppContext();
  return readSession(request, { secret, secureCookie: secureCookies, db: ctx.db, now: ctx.now() });
}

/** The session of the page being rendered (server components), checked as a request's is. */
export async function pageSession(): Promise<SessionAdmin | null> {
  const cookie = (await cookies())
    .getAll()
    .map(({ name, value }) => `${name}=${encodeURIComponent(value)}`)
    .join("; ");
  return sessionFromRequest(new Request("http://localhost/", { headers: { cookie } }));
}
