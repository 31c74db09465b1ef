// The database package's environment variables, validated once with zod, and the helpers the
// app's own settings (apps/web/src/env.ts) are written with. A bad value stops start-up with a
// message naming the variable.
import { z } from "zod";

/** A boolean variable: "true" or "1" is on; unset, "", "false" or "0" is off. */
export const flag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => value === "true" || value === "1");

/** A URL variable; "" is unset. */
export const optionalUrl = z
  .string()
  .optional()
  .transform((value) => (value === "" ? undefined : value))
  .pipe(z.url().optional());

/**
 * The settings of the database package: where the data lives. The app extends this schema with
 * its own (apps/web/src/env.ts).
 */
export const dbEnvSchema = z.object({
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
});

export type DbEnv = z.infer<typeof dbEnvSchema>;

export class EnvError extends Error {}

/** Parses an environment with `schema`; throws EnvError naming each bad variable. */
export function parseEnvWith<Schema extends z.ZodType>(schema: Schema, source: Record<string, string | undefined>): z.infer<Schema> {
  const result = schema.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
  throw new EnvError(`Invalid environment variables:\n${lines.join("\n")}`);
}

/** Parses the database's variables of an environment. */
export function parseDbEnv(source: Record<string, string | undefined>): DbEnv {
  return parseEnvWith(dbEnvSchema, source);
}

let cached: DbEnv | undefined;

/** The database's variables of the process environment, parsed once. */
export function dbEnv(): DbEnv {
  cached ??= parseDbEnv(process.env);
  return cached;
}

/** The folder a command was typed in: npm runs scripts from the repository root and names it in INIT_CWD. */
export function commandDirectory(): string {
  return process.env.INIT_CWD ?? process.cwd();
}

/** Forget the parsed environment (tests that change process.env). */
export function resetDbEnv(): void {
  cached = undefined;
}
