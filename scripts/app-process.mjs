// How the production server's process is started, by `npm start`, the bench and the reliability
// suite alike, so that what is measured is what runs. Each value gives way to the same variable
// set in the environment.
//
// Memory: the old generation is capped (V8 otherwise grows its heap lazily on a large machine) and
// the young generation kept small (2 MB semi-spaces instead of 16: a server's garbage is mostly
// short-lived, and 16 MB semi-spaces hold 48 MB resident). glibc's allocator keeps what it freed
// inside its heap: compiling the database client's WebAssembly at start frees ~100 MB that would
// stay resident for good, so allocations of 32 KB and more are given their own mappings, which go
// back to the system when freed, and threads share two arenas instead of one each.
export const APP_NODE_OPTIONS = "--max-old-space-size=176 --max-semi-space-size=2";
// The embedded database (PGlite, when DATABASE_URL is unset) lives in the server's own heap: about
// 190 MB of it at rest, so its old generation gets room for that on top.
export const EMBEDDED_APP_NODE_OPTIONS = "--max-old-space-size=384 --max-semi-space-size=2";
export const APP_MALLOC_ENV = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "32768" };

/**
 * The production server's process environment settings, each unless `env` sets it; `env`'s
 * DATABASE_URL says whether the database is a server or embedded.
 */
export function appProcessEnv(env = process.env) {
  return {
    NODE_OPTIONS: env.NODE_OPTIONS ?? (env.DATABASE_URL ? APP_NODE_OPTIONS : EMBEDDED_APP_NODE_OPTIONS),
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? APP_MALLOC_ENV.MALLOC_ARENA_MAX,
    MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_ ?? APP_MALLOC_ENV.MALLOC_MMAP_THRESHOLD_,
  };
}
