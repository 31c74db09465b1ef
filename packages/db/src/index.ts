export { type BackupResult, backupDataFolder, type RestoreResult, restoreDataFolder } from "./backup.ts";
export { closeDb, type Database, type DatabaseMode, dataDir, getDb, openDatabase, repoRoot, type SqlSession } from "./client.ts";
export { DataFolderDamagedError } from "./data-folder.ts";
export { type Env, EnvError, env, parseEnv, publicAppUrl, resetEnv } from "./env.ts";
export { DataFolderInUseError, type DataFolderLock, type LockOwner, lockDataFolder } from "./folder-lock.ts";
export * from "./generated/prisma/client.ts";
export { MigrationError, migrate, readMigrations } from "./migrate.ts";
export { hashPassword, verifyPassword } from "./password.ts";
export { type SeedOptions, type SeedResult, seed } from "./seed.ts";
