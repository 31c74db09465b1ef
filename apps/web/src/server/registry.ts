// The process's one registry of what lives once per server process: the app context (database,
// limiters, live channel), the scheduler, the hooks the server entry calls (body caps, the
// direct routes, /ws) and what runs at shutdown. It hangs off globalThis under one symbol because
// the server entry (server.mjs, plain JavaScript) and Next's bundles load this code as separate
// module instances; server.mjs creates it before Next starts (see there).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { AppContext } from "@parley/core";
import type { SemanticSearch } from "@parley/core/knowledge";
import type { Scheduler } from "@parley/core/scheduler";

export interface ProcessRegistry {
  /** The app context, built once (platform/context.ts). */
  context?: Promise<AppContext>;
  /** Semantic retrieval's embedder and in-process passage index, or null when not configured (semantic.ts). */
  semantic?: Promise<SemanticSearch | null>;
  /** This instance's background tasks, webhook deliveries among them (scheduler.ts). */
  scheduler?: Scheduler;
  /** Set by the start-up hook (startup.ts) for the server entry to call. */
  hooks: {
    limitRequestBody?(req: IncomingMessage, res: ServerResponse, serve: () => void): void;
    serveDirectRoute?(req: IncomingMessage, res: ServerResponse): boolean;
    upgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  };
  /** The server entry's: called once the start-up hook has finished. */
  started?(): void;
  /**
   * Run when the process stops (the scheduler, /ws), while the server stops taking connections;
   * given how long running work may still take (SHUTDOWN_DRAIN_MS of @parley/core/shutdown).
   */
  shutdown: Set<(drainMs: number) => Promise<void>>;
}

const KEY = Symbol.for("parley.process");

export function processRegistry(): ProcessRegistry {
  const store = globalThis as typeof globalThis & { [KEY]?: ProcessRegistry };
  store[KEY] ??= { hooks: {}, shutdown: new Set() };
  return store[KEY];
}
