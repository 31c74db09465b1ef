// The panel's live channel: a Server-Sent Events stream of the workspace's inbox events (from the
// live bus, so across instances over Redis pub/sub). Each event names a conversation that changed
// (and whether a turn just escalated it); the panel refetches what it shows. A comment line every
// INBOX_STREAM_HEARTBEAT_MS keeps proxies from closing an idle stream and finds dead clients.

import { assertMayCall, roleMayCall } from "../../people/permissions.ts";
import type { AdminScope } from "../../people/scope.ts";
import { INBOX_STREAM_HEARTBEAT_MS } from "../limits.ts";
import { inboxChannel, type LiveBus } from "../live.ts";

export const INBOX_STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  // no-transform: a compressing proxy must not buffer the stream.
  "cache-control": "no-store, no-transform",
  "x-accel-buffering": "no",
} as const;

/**
 * The session behind a stream as it is now (signed out, ended, expired or the person deactivated:
 * null); its role is read again, so a role changed since the stream opened applies too.
 */
export type CurrentSession = () => Promise<AdminScope | null>;

/**
 * The stream of one panel; it ends when `signal` aborts (the browser went away), and at the first
 * heartbeat after its session ended or its role lost the inbox: a stream outlives the request that
 * checked the session, and would otherwise go on telling an ended session the workspace's news.
 */
export function inboxEventStream(
  live: LiveBus | undefined,
  scope: AdminScope,
  signal: AbortSignal,
  currentSession?: CurrentSession,
): ReadableStream<Uint8Array> {
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
      const heartbeat = setInterval(() => void beat(), INBOX_STREAM_HEARTBEAT_MS);
      const beat = async () => {
        // A failed read (the database away a moment) is no sign the session ended: the stream goes on.
        const now = currentSession ? await currentSession().catch(() => scope) : scope;
        if (!now || now.workspaceId !== scope.workspaceId || !roleMayCall(now.role, "GET /api/panel/events")) stop();
        else write(": ping\n\n");
      };
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
