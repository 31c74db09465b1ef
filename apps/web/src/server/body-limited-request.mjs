// The request class of Parley's server (server.mjs creates its server with it): a request whose
// body is held back from the moment it arrives until the server has decided what to do with it
// (see body-limit.ts, which decides each path's limit and answers 413). The decision may come
// later than the first body bytes (the server waits for the app to start), so nothing may reach
// the stream before it. Plain JavaScript, because server.mjs loads it as is.
import { IncomingMessage } from "node:http";

/**
 * Body bytes kept before the decision; past this the socket is paused (backpressure) until it
 * comes, so a request that waits for start-up cannot fill memory.
 */
const UNDECIDED_MAX_BYTES = 64 * 1024;

/** How long a refused connection stays half-open (answered, not read) before it is closed for good. */
const REFUSED_LINGER_MS = 2_000;

/**
 * For a request refused without reading its body: the answer is sent, then the connection closes.
 * Node ends a `connection: close` response's socket as soon as it is sent (destroySoon); with body
 * bytes still unread, that resets the connection and the client may never see the answer. So: end
 * our side after the response, read nothing more, and close for good a little later.
 */
export function closeAfterAnswer(socket) {
  socket.destroySoon = () => {
    socket.end();
    socket.pause();
    setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
  };
}

export class BodyLimitedRequest extends IncomingMessage {
  /** Body pieces received and not yet handed on; `ended` once the parser pushed the end. */
  #pending = { chunks: [], bytes: 0, ended: false };
  /** undefined until decided; then "stream" (hand on as it comes), "hold" or "refused". */
  #mode;
  #hold;

  /**
   * Holds the body until its end (then `complete`), or until it passes `limit` bytes (then
   * `tooLarge`, once, and nothing more of it is read).
   */
  holdBody(limit, complete, tooLarge) {
    this.#mode = "hold";
    this.#hold = { limit, complete, tooLarge };
    if (this.#pending.bytes > limit) return this.#refuse();
    if (this.#pending.ended) return this.#release();
    this.#resumeSocket();
  }

  /** Hands the body on as it arrives, unlimited here (the route reads it with its own cap). */
  streamBody() {
    this.#mode = "stream";
    this.#release();
  }

  // Node's HTTP parser hands each piece of the body to push(); the last call is push(null). A
  // false return pauses the socket.
  push(chunk, encoding) {
    if (this.#mode === "stream") return super.push(chunk, encoding);
    if (this.#mode === "refused") return false;
    const pending = this.#pending;
    if (chunk === null) {
      pending.ended = true;
      if (this.#mode === "hold") this.#release();
      return false;
    }
    const piece = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding);
    pending.chunks.push(piece);
    pending.bytes += piece.length;
    if (this.#mode === "hold") {
      if (pending.bytes > this.#hold.limit) this.#refuse();
      return this.#mode === "hold";
    }
    return pending.bytes < UNDECIDED_MAX_BYTES;
  }

  /** Gives the stream every piece kept so far (and its end, if it came), then streams on. */
  #release() {
    const { chunks, ended } = this.#pending;
    const hold = this.#mode === "hold" ? this.#hold : undefined;
    this.#mode = "stream";
    this.#pending = { chunks: [], bytes: 0, ended };
    for (const piece of chunks) super.push(piece);
    if (ended) super.push(null);
    else this.#resumeSocket();
    hold?.complete();
  }

  /** Reads on after a false push() paused the socket, unless the server paused it itself. */
  #resumeSocket() {
    const socket = this.socket;
    if (socket && !socket._paused && socket.readable) socket.resume();
  }

  #refuse() {
    this.#mode = "refused";
    this.#pending = { chunks: [], bytes: 0, ended: false };
    this.#hold.tooLarge();
  }
}
