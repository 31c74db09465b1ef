// A request over a raw socket, for the body caps: a Content-Length the body never sends, or a
// chunked body that keeps coming, written as fast as the server reads it until it answers and
// closes (used by the unit tests and the reliability suite).
import { connect, type Socket } from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Body bytes the client managed to write before the server answered and closed. */
  sent: number;
}

/**
 * Sends a request over a raw socket: `declared` as its Content-Length (else chunked), then up to
 * `total` bytes of body in 16 KiB pieces of `fill`, waiting for the socket to drain, until the
 * server answers and closes.
 */
export function rawRequest(
  baseUrl: string,
  path: string,
  options: { total: number; declared?: number; headers?: Record<string, string>; fill?: string },
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const socket: Socket = connect(Number(port), hostname);
  const chunked = options.declared === undefined;
  const head = [
    `POST ${path} HTTP/1.1`,
    `host: ${hostname}:${port}`,
    "content-type: application/json",
    chunked ? "transfer-encoding: chunked" : `content-length: ${options.declared}`,
    ...Object.entries(options.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    "",
    "",
  ].join("\r\n");
  let received = "";
  let sent = 0;
  let closed = false;
  return new Promise((resolve, reject) => {
    socket.setEncoding("latin1");
    socket.on("data", (data: string) => {
      received += data;
    });
    socket.on("error", () => {}); // EPIPE / ECONNRESET once the server closes: expected.
    socket.on("close", () => {
      closed = true;
      const [head = "", body = ""] = received.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const status = Number(statusLine.split(" ")[1]);
      if (!status) return reject(new Error(`no response (sent ${sent} bytes)`));
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      resolve({ status, headers, body, sent });
    });
    socket.write(head);
    const piece = (options.fill ?? " ").repeat(16 * 1024).slice(0, 16 * 1024);
    const pump = () => {
      while (!closed && sent < options.total) {
        const size = Math.min(piece.length, options.total - sent);
        const data = piece.slice(0, size);
        sent += size;
        const ok = socket.write(chunked ? `${size.toString(16)}\r\n${data}\r\n` : data);
        if (!ok) return void socket.once("drain", pump);
      }
      if (!closed && chunked) socket.write("0\r\n\r\n");
    };
    pump();
  });
}
