/** How long a stopping instance lets running turns finish (shutdown.mjs). */
export declare const SHUTDOWN_DRAIN_MS: number;
/** The latest a stopping instance exits after SIGTERM. */
export declare const SHUTDOWN_EXIT_MS: number;
