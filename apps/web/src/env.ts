// The app's environment variables: the database's (packages/db/src/env.ts) and the app's own,
// validated once at start-up (check-env.ts before `npm start` builds; the instrumentation hook
// when a server starts) and handed to core through the AppContext. Core reads no environment; the
// app reads it here only (the lint's noProcessEnv rule), but for the entry files Next and Node load
// on their own (server.mjs, instrumentation.ts, proxy.ts).
import { isIP } from "node:net";
import { LOG_LEVELS, parseTrustProxy, type TrustProxy } from "@parley/core";
import { llmSettingsSchema } from "@parley/core/engine";
import { checkImagesSettings, imagesSettingsSchema } from "@parley/core/images";
import { embeddingsSettingsSchema } from "@parley/core/knowledge";
import { checkSpeechSettings, speechSettingsSchema } from "@parley/core/voice";
import { dbEnvSchema, flag, optionalUrl, parseEnvWith } from "@parley/db";
import { z } from "zod";
import { siteSettingsSchema } from "./site.ts";

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === "" ? undefined : value));

/** An interface address to listen on: an IP address or a host name. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** What the command-line tools read (db:seed, the start-up's setup): the database's and the site's settings. */
const cliEnvSchema = dbEnvSchema.extend(siteSettingsSchema.shape);

const appEnvSchema = cliEnvSchema
  .extend({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    /** The interface server.mjs listens on. */
    HOST: z
      .string()
      .default("0.0.0.0")
      .refine((value) => isIP(value) !== 0 || HOST_NAME.test(value), "must be an IP address or a host name"),
    /** Signs and encrypts panel sessions. Required in production server mode; otherwise generated once into DATA_DIR. */
    NEXTAUTH_SECRET: optionalText.pipe(z.string().min(32, "must be at least 32 characters").optional()),
    /** Public URL next-auth builds its redirects with; defaults to APP_URL. */
    NEXTAUTH_URL: optionalUrl,
    REDIS_URL: optionalUrl,
    UPSTASH_REDIS_REST_URL: optionalUrl,
    UPSTASH_REDIS_REST_TOKEN: z.string().optional(),
    /** Benchmarks only (`npm run bench`): multiplies every rate limit by this factor. Never set it in production. */
    RATE_LIMIT_SCALE: z.coerce.number().int().min(1).default(1),
    /**
     * Tests only: multiplies every agent's widget connections per visitor IP (0.1 turns the default
     * 20 into 2). The e2e suite's browsers all connect from 127.0.0.1. Never set it in production.
     */
    WIDGET_CONNECTIONS_SCALE: z.coerce.number().positive().finite().default(1),
    /** Behind reverse proxies: which of them may name the client in X-Forwarded-For (see @parley/core's platform/trust-proxy.ts). */
    TRUST_PROXY: z
      .string()
      .optional()
      .transform((value, context): TrustProxy => {
        const parsed = parseTrustProxy(value);
        if (parsed.ok) return parsed.value;
        context.addIssue({ code: "custom", message: parsed.error });
        return z.NEVER;
      }),
    ...llmSettingsSchema.shape,
    /** Semantic retrieval: an OpenAI-compatible embeddings endpoint (EMBEDDINGS_BASE_URL, _API_KEY, _MODEL). */
    ...embeddingsSettingsSchema.shape,
    /** Voice: an OpenAI-compatible audio endpoint and which engines run (SPEECH_*; see @parley/core/voice). */
    ...speechSettingsSchema.shape,
    /** Uploaded images in an S3-compatible bucket (IMAGES_S3_*; see @parley/core/images); unset: in the database. */
    ...imagesSettingsSchema.shape,
    LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
    /** Email out (invitations, password reset links): smtp://user:pass@host:587, or smtps:// for TLS from the start. Unset: no email. */
    SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional()),
    /** How long a person's replies to a visitor who left are gathered into one email (seconds). */
    VISITOR_MAIL_DELAY_SECONDS: z.coerce.number().int().min(0).max(3_600).default(120),
    /**
     * Tests and local development only: webhook endpoints may use http:// and private, loopback or
     * link-local addresses (the SSRF guard is off). Never set it in production.
     */
    WEBHOOKS_ALLOW_LOCAL: flag,
  })
  // Instances sharing a PostgreSQL database must accept each other's session cookies, so they need
  // one configured secret; a single embedded instance generates and keeps its own (auth.ts).
  .superRefine((config, context) => {
    checkSpeechSettings(config, context);
    checkImagesSettings(config, context);
    if (config.NODE_ENV === "production" && config.DATABASE_URL && !config.NEXTAUTH_SECRET) {
      context.addIssue({
        code: "custom",
        path: ["NEXTAUTH_SECRET"],
        message: "required in production with DATABASE_URL (every instance must use the same secret)",
      });
    }
  });

export type AppEnv = z.infer<typeof appEnvSchema>;

/** Every variable the app's settings read; the README's operations table names each (a test checks it). */
export const APP_ENV_VARIABLES: readonly string[] = Object.keys(appEnvSchema.shape);

/** Parses an environment; throws EnvError naming each bad variable. */
export function parseAppEnv(source: Record<string, string | undefined>): AppEnv {
  return parseEnvWith(appEnvSchema, source);
}

let cached: AppEnv | undefined;

/** The process environment, parsed once. */
export function appEnv(): AppEnv {
  cached ??= parseAppEnv(process.env);
  return cached;
}

/** Forget the parsed environment (tests that change process.env). */
export function resetAppEnv(): void {
  cached = undefined;
}

export type CliEnv = z.infer<typeof cliEnvSchema>;

/** The command-line tools' settings of the process environment; throws EnvError naming each bad variable. */
export function cliEnv(): CliEnv {
  return parseEnvWith(cliEnvSchema, process.env);
}

/** next-auth reads its URL from process.env alone: the one variable the app writes, at start-up. */
export function publishNextAuthUrl(url: string): void {
  process.env.NEXTAUTH_URL = url;
}
