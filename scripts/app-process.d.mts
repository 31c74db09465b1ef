export declare const APP_NODE_OPTIONS: string;
export declare const EMBEDDED_APP_NODE_OPTIONS: string;
export declare const APP_MALLOC_ENV: { MALLOC_ARENA_MAX: string; MALLOC_MMAP_THRESHOLD_: string };
export declare function appProcessEnv(env?: Record<string, string | undefined>): {
  NODE_OPTIONS: string;
  MALLOC_ARENA_MAX: string;
  MALLOC_MMAP_THRESHOLD_: string;
};
