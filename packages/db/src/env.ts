// Every environment variable Parley reads, validated once with zod. This lives in the lowest
// package so the db, core, api and web code all read configuration from this one place.
// A bad value stops start-up with a message naming the variable.
import { z } from "zod";
import { parseTrustProxy, type TrustProxy } from "./trust-proxy.ts";

const flag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => value === "true" || value === "1");

const optionalUrl = z
  .string()
  .optional()
  .transform((value) => (value === "" ? undefined : value))
  .pipe(z.url().optional());

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** Unset: embedded PGlite under DATA_DIR. Set: PostgreSQL at this URL. */
  DATABASE_URL: z
    .string()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
        .optional(),
    ),
  DATA_DIR: z.string().min(1).default(".data"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Public base URL of the app, used in links (help pages, canonical URLs). */
  APP_URL: optionalUrl,
  /** Signs and encrypts panel sessions. Required in production server mode; otherwise generated once into DATA_DIR. */
  NEXTAUTH_SECRET: z
    .string()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .pipe(z.string().min(32, "must be at least 32 characters").optional()),
  /** Public URL next-auth builds its redirects with; defaults to APP_URL. */
  NEXTAUTH_URL: optionalUrl,
  ADMIN_EMAIL: z.email().default("admin@example.com"),
  ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
  REDIS_URL: optionalUrl,
  UPSTASH_REDIS_REST_URL: optionalUrl,
  UPSTASH_REDIS_REST_TOKEN: z.string().optional(),
  /** Benchmarks only (`npm run bench`): multiplies every rate limit by this factor. Never set it in production. */
  RATE_LIMIT_SCALE: z.coerce.number().int().min(1).default(1),
  /** Behind reverse proxies: which of them may name the client in X-Forwarded-For (see trust-proxy.ts). */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, context): TrustProxy => {
      const parsed = parseTrustProxy(value);
      if (parsed.ok) return parsed.value;
      context.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    }),
  LLM_BASE_URL: optionalUrl,
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  LLM_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /**
   * Tests and local development only: webhook endpoints may use http:// and private, loopback or
   * link-local addresses (the SSRF guard is off). Never set it in production.
   */
  WEBHOOKS_ALLOW_LOCAL: flag,
});

// Instances sharing a PostgreSQL database must accept each other's session cookies, so they need
// one configured secret; a single embedded instance generates and keeps its own.
const checkedEnvSchema = envSchema.superRefine((config, context) => {
  if (config.NODE_ENV === "production" && config.DATABASE_URL && !config.NEXTAUTH_SECRET) {
    context.addIssue({
      code: "custom",
      path: ["NEXTAUTH_SECRET"],
      message: "required in production with DATABASE_URL (every instance must use the same secret)",
    });
  }
});

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {}

/** Parses an environment; throws EnvError naming each bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = checkedEnvSchema.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
  throw new EnvError(`Invalid environment variables:\n${lines.join("\n")}`);
}

let cached: Env | undefined;

/** The process environment, parsed once. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** The public base URL: APP_URL, else http://localhost:PORT; no trailing slash. */
export function publicAppUrl(config: Pick<Env, "APP_URL" | "PORT"> = env()): string {
  return (config.APP_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, "");
}

/** Forget the parsed environment (tests that change process.env). */
export function resetEnv(): void {
  cached = undefined;
}
