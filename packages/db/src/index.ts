export { type BackupResult, backupDataFolder, type RestoreResult, restoreDataFolder } from "./backup.ts";
export {
  closeDb,
  type Database,
  type DatabaseMode,
  dataDir,
  getDb,
  openDatabase,
  type RowsOptions,
  repoRoot,
  type SqlSession,
  type Statement,
} from "./client.ts";
export { DataFolderDamagedError } from "./data-folder.ts";
export { type DbEnv, dbEnv, dbEnvSchema, EnvError, flag, optionalUrl, parseDbEnv, parseEnvWith, resetDbEnv } from "./env.ts";
export { DataFolderInUseError, type DataFolderLock, DataFolderNestedError, type LockOwner, lockDataFolder } from "./folder-lock.ts";
export * from "./generated/prisma/client.ts";
export { MigrationError, migrate, readMigrations } from "./migrate.ts";
