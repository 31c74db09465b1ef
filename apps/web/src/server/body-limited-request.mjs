// The request class of Parley's server (server.mjs creates its server with it): a request whose
// body can be held back and counted before its stream gives out a byte (see body-limit.ts, which
// decides each path's limit and answers 413). Plain JavaScript, because server.mjs loads it as is.
import { IncomingMessage } from "node:http";

export class BodyLimitedRequest extends IncomingMessage {
  #held;
  #refused = false;

  /** Holds the body until its end (then `complete`), or until it passes `limit` bytes (then `tooLarge`, once). */
  holdBody(limit, complete, tooLarge) {
    this.#held = { limit, received: 0, chunks: [], complete, tooLarge };
  }

  // Node's HTTP parser hands each piece of the body to push(); the last call is push(null).
  push(chunk, encoding) {
    const held = this.#held;
    if (this.#refused) return false;
    if (!held) return super.push(chunk, encoding);
    if (chunk === null) {
      this.#held = undefined;
      for (const piece of held.chunks) super.push(piece);
      const ended = super.push(null);
      held.complete();
      return ended;
    }
    const piece = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding);
    held.received += piece.length;
    if (held.received > held.limit) {
      this.#refused = true;
      this.#held = undefined;
      held.tooLarge();
      return false;
    }
    held.chunks.push(piece);
    return true;
  }
}
