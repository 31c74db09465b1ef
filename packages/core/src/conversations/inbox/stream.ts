// The panel's live channel: a Server-Sent Events stream of the workspace's inbox events (from the
// live bus, so across instances over Redis pub/sub). Each event names a conversation that changed
// (and whether a turn just escalated it); the panel refetches what it shows. A comment line every
// INBOX_STREAM_HEARTBEAT_MS keeps proxies from closing an idle stream and finds dead clients.

import { assertMayCall } from "../../people/permissions.ts";
import type { AdminScope } from "../../people/scope.ts";
import { INBOX_STREAM_HEARTBEAT_MS } from "../limits.ts";
import { inboxChannel, type LiveBus } from "../live.ts";

export const INBOX_STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  // no-transform: a compressing proxy must not buffer the stream.
  "cache-control": "no-store, no-transform",
  "x-accel-buffering": "no",
} as const;

/** The stream of one panel; it ends when `signal` aborts (the browser went away). */
export function inboxEventStream(live: LiveBus | undefined, scope: AdminScope, signal: AbortSignal): ReadableStream<Uint8Array> {
  assertMayCall(scope, "GET /api/panel/events");
  const encoder = new TextEncoder();
  let stop = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
        }
      };
      // The browser reconnects 3 s after a drop (EventSource's retry field).
      write("retry: 3000\n: connected\n\n");
      const unsubscribe = live?.subscribe(inboxChannel(scope.workspaceId), (event) => {
        if (event.type === "inbox") write(`event: inbox\ndata: ${JSON.stringify(event)}\n\n`);
      });
      const heartbeat = setInterval(() => write(": ping\n\n"), INBOX_STREAM_HEARTBEAT_MS);
      heartbeat.unref?.();
      stop = () => {
        clearInterval(heartbeat);
        unsubscribe?.();
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      if (signal.aborted) stop();
      else signal.addEventListener("abort", stop, { once: true });
    },
    cancel() {
      stop();
    },
  });
}
