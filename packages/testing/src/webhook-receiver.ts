// A local webhook receiver for tests: node:http on 127.0.0.1, recording every request (headers
// and raw body) and answering as the test's responder says (a status, headers, a delay, or never).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  id: string;
  timestamp: string;
  signature: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Order of arrival, from 0. */
  index: number;
  /** The status we answered with (null while pending or when the connection was dropped). */
  answered: number | null;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answer after this many ms. */
  delayMs?: number;
  /** Never answer (until the connection is closed or the receiver stops). */
  hang?: boolean;
}

export type Responder = (request: ReceivedRequest) => Reply | Promise<Reply>;

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Requests being handled right now, by webhook-id (with their count). */
  inFlight: Map<string, number>;
  respond: Responder;
  /** Resolves when `predicate` holds (checked on each request and answer), or rejects after `timeoutMs`. */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(respond: Responder = () => ({ status: 200 })): Promise<Receiver> {
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of waiters) waiter();
  };
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = {
    url: "",
    requests: [],
    inFlight: new Map(),
    respond,
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: condition not met within ${timeoutMs} ms (${receiver.requests.length} requests)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const header = (name: string) => String(req.headers[name] ?? "");
      const request: ReceivedRequest = {
        id: header("webhook-id"),
        timestamp: header("webhook-timestamp"),
        signature: header("webhook-signature"),
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        index: receiver.requests.length,
        answered: null,
      };
      receiver.requests.push(request);
      receiver.inFlight.set(request.id, (receiver.inFlight.get(request.id) ?? 0) + 1);
      const done = () => {
        const left = (receiver.inFlight.get(request.id) ?? 1) - 1;
        if (left > 0) receiver.inFlight.set(request.id, left);
        else receiver.inFlight.delete(request.id);
        notify();
      };
      res.on("close", done);
      notify();
      const reply = await receiver.respond(request);
      if (reply.hang) {
        hanging.add(res);
        return;
      }
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      if (res.destroyed) return;
      request.answered = reply.status;
      res.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers });
      res.end(reply.body ?? "ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
