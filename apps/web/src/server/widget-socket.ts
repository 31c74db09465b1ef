// The widget / SDK WebSocket endpoint `/ws` (protocol parley.v1): the `ws` adapter around core's
// WidgetSession. server.mjs hands it the HTTP upgrades of `/ws`; everything the protocol does
// lives in @parley/core/widget.
//
// Wiring: the instrumentation hook (which runs inside Next's server runtime, so this module shares
// the app's context, database and live bus with the route handlers) calls startWidgetSocket(),
// which publishes the upgrade handler on globalThis for server.mjs.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { AppContext } from "@parley/core";
import { clientIp, describeError, logger } from "@parley/core";
import { CLOSE_CODES, createResumeTokens, type ResumeTokens, WIDGET_SUBPROTOCOL, WidgetSession } from "@parley/core/widget";
import { WIDGET_FRAME_MAX_BYTES } from "@parley/core/widget/widget-limits";
import { type WebSocket, WebSocketServer } from "ws";
import { authSecret } from "./auth.ts";
import { getAppContext } from "./context.ts";
import { processRegistry } from "./registry.ts";

export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface WidgetSocketServer {
  handleUpgrade: UpgradeHandler;
  /**
   * Stops accepting connections (an upgrade is answered 503), lets each connection's running turn
   * reply (within `drainMs`), then closes it with 1001 (going away): the widget reconnects, to
   * another instance behind a load balancer, and resumes its conversation there.
   */
  close(drainMs?: number): Promise<void>;
}

export interface WidgetSocketOptions {
  getContext: () => Promise<AppContext>;
  /** The app's secret, read on the first connection. */
  secret: () => string;
  helloTimeoutMs?: number;
  toolTimeoutMs?: number;
  /** Tests: a shorter wait than VISITOR_EMAIL_PROMPT_AFTER_MS before asking for an email. */
  emailPromptAfterMs?: number;
  /** Tests: a shorter longest voice utterance, fewer voice sessions per instance. */
  voiceUtteranceMaxMs?: number;
  voiceSessionsPerInstance?: number;
  /** Ping interval; a connection that misses a pong is dropped. */
  heartbeatMs?: number;
}

export function createWidgetSocketServer(options: WidgetSocketOptions): WidgetSocketServer {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: WIDGET_FRAME_MAX_BYTES,
    perMessageDeflate: false,
    // Accept the handshake without a subprotocol too, so the page learns why (close 4426).
    handleProtocols: (protocols) => (protocols.has(WIDGET_SUBPROTOCOL) ? WIDGET_SUBPROTOCOL : false),
  });
  let tokens: ResumeTokens | undefined;
  const alive = new WeakSet<WebSocket>();
  /** Each open connection's session (null when it failed to start), for close() to wait on. */
  const sessions = new Map<WebSocket, Promise<WidgetSession | null>>();

  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (!alive.has(ws)) {
        ws.terminate();
        continue;
      }
      alive.delete(ws);
      ws.ping();
    }
  }, options.heartbeatMs ?? 30_000);
  heartbeat.unref();

  function onConnection(ws: WebSocket, request: IncomingMessage): void {
    alive.add(ws);
    ws.on("pong", () => alive.add(ws));
    ws.on("error", (error) => logger.debug("widget socket error", { error: describeError(error) }));
    if (ws.protocol !== WIDGET_SUBPROTOCOL) {
      ws.close(CLOSE_CODES.UNSUPPORTED_PROTOCOL.code, CLOSE_CODES.UNSUPPORTED_PROTOCOL.reason);
      return;
    }
    // Read now: the socket may be gone by the time the context has loaded.
    const address = { socketAddress: request.socket.remoteAddress, forwardedFor: headerValue(request.headers["x-forwarded-for"]) };
    // Frames that arrive while the context loads are handed over in order once it is ready.
    const session = options
      .getContext()
      .then((ctx) => {
        tokens ??= createResumeTokens(options.secret());
        return new WidgetSession(
          {
            send: (frame) => {
              if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
            },
            sendBinary: (bytes) => {
              if (ws.readyState === ws.OPEN) ws.send(bytes, { binary: true });
            },
            close: (code, reason) => ws.close(code, reason),
          },
          {
            ctx,
            tokens,
            origin: typeof request.headers.origin === "string" ? request.headers.origin : null,
            clientIp: clientIp(ctx.trustProxy, address),
            helloTimeoutMs: options.helloTimeoutMs,
            toolTimeoutMs: options.toolTimeoutMs,
            emailPromptAfterMs: options.emailPromptAfterMs,
            voiceUtteranceMaxMs: options.voiceUtteranceMaxMs,
            voiceSessionsPerInstance: options.voiceSessionsPerInstance,
          },
        );
      })
      .catch((error: unknown) => {
        logger.error("widget session failed to start", { error: describeError(error) });
        ws.close(CLOSE_CODES.INTERNAL.code, CLOSE_CODES.INTERNAL.reason);
        return null;
      });
    ws.on("message", (data, isBinary) => {
      const bytes = isBinary ? asBytes(data) : null;
      const text = bytes === null ? data.toString() : null;
      void session.then((current) => {
        if (!current) return;
        if (bytes !== null) current.receiveAudio(bytes);
        else if (text !== null) current.receive(text);
      });
    });
    sessions.set(ws, session);
    ws.on("close", () => {
      sessions.delete(ws);
      void session.then((current) => current?.closed());
    });
  }

  return {
    handleUpgrade(request, socket, head) {
      wss.handleUpgrade(request, socket, head, (ws) => onConnection(ws, request));
    },
    async close(drainMs = 0) {
      clearInterval(heartbeat);
      // From here ws answers upgrades 503; the callback runs once every connection has closed.
      const closed = new Promise<void>((resolve) => wss.close(() => resolve()));
      let timer: NodeJS.Timeout | undefined;
      const drained = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), drainMs);
      });
      await Promise.all(
        [...wss.clients].map(async (ws) => {
          const session = await Promise.race([sessions.get(ws) ?? null, drained]);
          if (session) await Promise.race([session.settled(), drained]);
          ws.close(CLOSE_CODES.GOING_AWAY.code, CLOSE_CODES.GOING_AWAY.reason);
        }),
      );
      clearTimeout(timer);
      await closed;
    },
  };
}

/** A binary message as one buffer (ws hands fragments as an array, or an ArrayBuffer by binaryType). */
function asBytes(data: Buffer | ArrayBuffer | Buffer[]): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

/** A header as one string: Node joins repeated X-Forwarded-For lines with commas already. */
function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(",") : value;
}

/** Publishes this process's `/ws` upgrade handler for server.mjs (once). */
export async function startWidgetSocket(): Promise<void> {
  const registry = processRegistry();
  if (registry.hooks.upgrade) return;
  const server = createWidgetSocketServer({ getContext: getAppContext, secret: authSecret });
  registry.hooks.upgrade = server.handleUpgrade;
  registry.shutdown.add((drainMs) => server.close(drainMs));
  logger.info("widget socket ready");
}
