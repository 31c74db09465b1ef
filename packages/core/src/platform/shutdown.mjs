// How long a stopping instance (SIGTERM: an orchestrator rolling or scaling down, `docker stop`,
// Ctrl-C) waits for the work it already has before it exits. Plain JavaScript, because the server
// entry (apps/web/server.mjs), which Node loads as is, reads it.
//
// Within SHUTDOWN_DRAIN_MS the instance takes no new connections, lets running turns finish (HTTP
// turns and widget turns alike: a widget gets its reply, then its socket closes with 1001 so the
// page reconnects to another instance) and gives back the webhook deliveries it holds. It exits at
// SHUTDOWN_EXIT_MS at the latest, whatever is still running: below the 10 s that `docker stop`
// and Kubernetes' default grace period allow before they kill the process.
export const SHUTDOWN_DRAIN_MS = 8_000;
export const SHUTDOWN_EXIT_MS = 9_000;
