// The Unix socket of a data folder's owner, `<folder>.<token>.sock`, readable and writable by the
// owner's OS user only. It serves two ends:
// - liveness: a connection that succeeds proves the owner alive (the kernel accepts it even while
//   the owner's event loop is busy); a refused one proves it gone, because the kernel closes a dead
//   process's sockets. This holds across process namespaces (containers sharing the folder);
// - requests to the owner: the only one is a backup of the open folder, which must be taken inside
//   the process that has it open. Whoever can connect could read the folder anyway.
// Each owner binds a path of its own (a random token), so closing one never removes another's.
import { chmodSync, rmSync } from "node:fs";
import net from "node:net";

/** Unix socket paths are limited to 104-108 bytes, depending on the system. */
const MAX_SOCKET_PATH_BYTES = 100;
const MAX_REQUEST_BYTES = 1_024;
const REQUEST_TIMEOUT_MS = 5_000;

export type OwnerRequest = "backup";
/** Answers a request with the bytes to send back (a thrown error is sent as its message). */
export type OwnerRequestHandler = (request: OwnerRequest) => Promise<Buffer>;

export interface OwnerSocket {
  path: string;
  serve(handler: OwnerRequestHandler): void;
  close(): Promise<void>;
  /** For the process's exit handler: removes the socket file (the descriptor closes with the process). */
  removeSync(): void;
}

/** Listens on `socketPath`; null where a socket cannot be had (Windows, a path too long, a filesystem without sockets). */
export async function listenOwnerSocket(socketPath: string): Promise<OwnerSocket | null> {
  if (process.platform === "win32" || Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) return null;
  let handler: OwnerRequestHandler | undefined;
  const connections = new Set<net.Socket>();
  const server = net.createServer((connection) => {
    connections.add(connection);
    connection.on("close", () => connections.delete(connection));
    connection.on("error", () => {});
    connection.setTimeout(REQUEST_TIMEOUT_MS, () => connection.destroy());
    let received = "";
    const onData = (chunk: Buffer) => {
      received += chunk.toString("utf8");
      if (received.length > MAX_REQUEST_BYTES) return connection.destroy();
      const end = received.indexOf("\n");
      if (end === -1) return;
      connection.off("data", onData);
      connection.setTimeout(0);
      void answer(connection, received.slice(0, end), handler);
    };
    connection.on("data", onData);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, () => resolve());
    });
    chmodSync(socketPath, 0o600);
  } catch {
    server.close();
    rmSync(socketPath, { force: true });
    return null;
  }
  server.unref();
  return {
    path: socketPath,
    serve: (next) => {
      handler = next;
    },
    close: async () => {
      for (const connection of connections) connection.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(socketPath, { force: true });
    },
    removeSync: () => rmSync(socketPath, { force: true }),
  };
}

async function answer(connection: net.Socket, line: string, handler: OwnerRequestHandler | undefined): Promise<void> {
  const reply = (header: Record<string, unknown>, body: Buffer = Buffer.alloc(0)) => {
    connection.write(`${JSON.stringify(header)}\n`);
    connection.end(body);
  };
  let request: unknown;
  try {
    request = (JSON.parse(line) as { request?: unknown }).request;
  } catch {
    // Answered below as an unknown request.
  }
  if (request !== "backup") return reply({ ok: false, error: "unknown request" });
  if (!handler) return reply({ ok: false, error: "the database is still opening; try again in a moment" });
  try {
    const body = await handler(request);
    reply({ ok: true, bytes: body.length }, body);
  } catch (error) {
    reply({ ok: false, error: (error as Error).message });
  }
}

/** Whether a process listens on `socketPath`: "refused" means its owner is gone. */
export function probeOwnerSocket(socketPath: string, timeoutMs = 2_000): Promise<"listening" | "refused" | "missing" | "unknown"> {
  return new Promise((resolve) => {
    const connection = net.connect({ path: socketPath });
    const done = (state: "listening" | "refused" | "missing" | "unknown") => {
      connection.destroy();
      resolve(state);
    };
    // A full backlog or a busy kernel: some process holds the socket.
    connection.setTimeout(timeoutMs, () => done("listening"));
    connection.once("connect", () => done("listening"));
    connection.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED") done("refused");
      else if (error.code === "ENOENT") done("missing");
      else if (error.code === "EAGAIN") done("listening");
      else done("unknown");
    });
  });
}

/** Sends a request to the owner listening on `socketPath` and returns its answer's bytes. */
export function requestFromOwner(socketPath: string, request: OwnerRequest, timeoutMs = 300_000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const connection = net.connect({ path: socketPath });
    const chunks: Buffer[] = [];
    connection.setTimeout(timeoutMs, () => connection.destroy(new Error(`the owner did not answer within ${timeoutMs / 1000} s`)));
    connection.once("connect", () => connection.write(`${JSON.stringify({ request })}\n`));
    connection.on("data", (chunk: Buffer) => chunks.push(chunk));
    // "close" follows an error too; the promise keeps whichever settled it first.
    connection.once("error", reject);
    connection.once("close", () => {
      const data = Buffer.concat(chunks);
      const end = data.indexOf(0x0a);
      let header: { ok?: boolean; error?: string; bytes?: number } = {};
      try {
        header = end === -1 ? {} : JSON.parse(data.subarray(0, end).toString("utf8"));
      } catch {
        // Reported below.
      }
      const body = data.subarray(end + 1);
      if (header.ok === true && body.length === header.bytes) resolve(body);
      else if (header.ok === false) reject(new Error(`the owner refused: ${header.error}`));
      else reject(new Error("the owner's answer was cut short"));
    });
  });
}
