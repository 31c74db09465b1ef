export { closeDb, type Database, type DatabaseMode, dataDir, getDb, openDatabase, repoRoot, type SqlSession } from "./client.ts";
export { type Env, EnvError, env, parseEnv, publicAppUrl, resetEnv } from "./env.ts";
export * from "./generated/prisma/client.ts";
export { MigrationError, migrate, readMigrations } from "./migrate.ts";
export { hashPassword, needsRehash, verifyPassword } from "./password.ts";
export { type SeedOptions, type SeedResult, seed } from "./seed.ts";
