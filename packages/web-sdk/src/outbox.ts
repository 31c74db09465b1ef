// The visitor's messages until the server acknowledges them. A message written into a socket that
// died without a close being noticed yet is lost with it; so each message carries a random
// clientMessageId and stays here until the server's `ack` (or its reply, or an error about it)
// names that id. After a reconnect every message still here is sent again, in order, under the
// same id: the server stores a clientMessageId once per conversation and only acknowledges it again.
// A first message has no conversation yet when its socket dies before `ready`: the page's start
// key (newStartKey, sent in every hello) lets the server find the conversation it started.
// (@parley/web imports no other package: the server's rule for the id is core's
// CLIENT_MESSAGE_ID_PATTERN, which these ids always meet.)

/** Messages that may wait for their acknowledgement at once; beyond, `send()` refuses. */
export const OUTBOX_MAX_MESSAGES = 20;
/** What `send()` answers (an `error` event) when the outbox is full; nothing is sent. */
export const OUTBOX_FULL_ERROR = "Too many messages waiting to be sent";
export const OUTBOX_FULL_DETAILS = `${OUTBOX_MAX_MESSAGES} messages are still waiting to be sent. Send this one once they are.`;

export interface PendingMessage {
  clientMessageId: string;
  text: string;
}

/** A random id of letters, digits and -: a UUID where the browser has one (any secure page has). */
export function newClientMessageId(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto?.randomUUID === "function") return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  if (typeof crypto?.getRandomValues === "function") crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * The page's secret for its first message sent again (64 hex digits): made once per connection and
 * kept only in memory, like the outbox it serves (a reload sends nothing again), so no other page
 * or script can read it from storage later. Null without a secure random source: no key is sent
 * and such a message starts a second conversation, as before.
 */
export function newStartKey(): string | null {
  const crypto = globalThis.crypto;
  if (typeof crypto?.getRandomValues !== "function") return null;
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export class Outbox {
  /** Insertion order is sending order. */
  private readonly pending = new Map<string, string>();

  get size(): number {
    return this.pending.size;
  }

  get full(): boolean {
    return this.pending.size >= OUTBOX_MAX_MESSAGES;
  }

  add(text: string): PendingMessage {
    const message = { clientMessageId: newClientMessageId(), text };
    this.pending.set(message.clientMessageId, text);
    return message;
  }

  /** The server answered for this message (stored it, or refused it): it is not sent again. True if it was waiting. */
  settle(clientMessageId: string | undefined): boolean {
    return clientMessageId !== undefined && this.pending.delete(clientMessageId);
  }

  /** What is still unacknowledged, oldest first. */
  messages(): PendingMessage[] {
    return [...this.pending].map(([clientMessageId, text]) => ({ clientMessageId, text }));
  }
}
