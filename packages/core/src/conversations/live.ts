// Live events for connected widget visitors: an admin's reply or a status change in the panel
// reaches the visitor's WebSocket, whichever instance holds it. In process by default; over Redis
// pub/sub (one channel per conversation) when REDIS_URL is set, so every instance hears every
// publish. Delivery is best effort: the message is stored first, and a visitor who was offline
// sees it in `ready` when they resume.
import IORedis from "ioredis";
import { describeError, logger } from "../platform/logger.ts";
import type { WireClosing, WireMessage } from "./wire-message.ts";

/**
 * On a conversation's channel: a reply or a status change for the visitor's widget (`person`: the
 * team member who joined, by their public name; null: none has; `notice`: what the visitor is
 * told, handoff.ts; null while the agent answers). On a workspace's inbox
 * channel (inboxChannel): something changed in a conversation, for the open panels to refetch.
 */
export type LiveEvent =
  | { type: "message"; message: WireMessage }
  | { type: "status"; status: "active" | "escalated"; person?: string | null; notice?: string | null }
  | { type: "typing"; active: boolean; person: string }
  /** The conversation was resolved (the closing line and the rating so far) or left resolved (null). */
  | { type: "closing"; closing: WireClosing | null }
  | { type: "inbox"; conversationId: string; escalated?: boolean };

export type LiveListener = (event: LiveEvent) => void;

export interface LiveBus {
  readonly kind: "memory" | "redis";
  publish(conversationId: string, event: LiveEvent): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(conversationId: string, listener: LiveListener): () => void;
  close(): Promise<void>;
}

/** Listeners per conversation, shared by both buses. */
class Listeners {
  private readonly byConversation = new Map<string, Set<LiveListener>>();

  /** Adds a listener; `first` tells whether it is the conversation's first. */
  add(conversationId: string, listener: LiveListener): { first: boolean } {
    let set = this.byConversation.get(conversationId);
    const first = set === undefined;
    if (!set) {
      set = new Set();
      this.byConversation.set(conversationId, set);
    }
    set.add(listener);
    return { first };
  }

  /** Removes a listener; `last` tells whether none is left for the conversation. */
  remove(conversationId: string, listener: LiveListener): { last: boolean } {
    const set = this.byConversation.get(conversationId);
    if (!set?.delete(listener)) return { last: false };
    if (set.size > 0) return { last: false };
    this.byConversation.delete(conversationId);
    return { last: true };
  }

  dispatch(conversationId: string, event: LiveEvent): void {
    for (const listener of [...(this.byConversation.get(conversationId) ?? [])]) {
      try {
        listener(event);
      } catch (error) {
        logger.warn("live listener failed", { error: error instanceof Error ? error.name : "unknown" });
      }
    }
  }

  clear(): void {
    this.byConversation.clear();
  }
}

export function createMemoryLiveBus(): LiveBus {
  const listeners = new Listeners();
  return {
    kind: "memory",
    async publish(conversationId, event) {
      listeners.dispatch(conversationId, event);
    },
    subscribe(conversationId, listener) {
      listeners.add(conversationId, listener);
      return () => void listeners.remove(conversationId, listener);
    },
    async close() {
      listeners.clear();
    },
  };
}

/** A Redis client as the bus uses it (ioredis). */
export interface PubSubClient {
  publish(channel: string, message: string): Promise<unknown>;
  subscribe(channel: string): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  on(event: "message", listener: (channel: string, message: string) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  quit(): Promise<unknown>;
  disconnect(): void;
}

const CHANNEL_PREFIX = "parley:live:";

/** `createClient` makes one connection; the bus opens two (a subscriber cannot publish). */
export function createRedisLiveBus(createClient: () => PubSubClient, options: { prefix?: string } = {}): LiveBus {
  const prefix = `${CHANNEL_PREFIX}${options.prefix ?? ""}`;
  const publisher = createClient();
  const subscriber = createClient();
  const listeners = new Listeners();
  for (const client of [publisher, subscriber]) {
    client.on("error", (error: Error) => logger.warn("live redis error", { error: error.message }));
  }
  subscriber.on("message", (channel: string, message: string) => {
    if (!channel.startsWith(prefix)) return;
    let event: LiveEvent;
    try {
      event = JSON.parse(message) as LiveEvent;
    } catch {
      return;
    }
    listeners.dispatch(channel.slice(prefix.length), event);
  });

  return {
    kind: "redis",
    async publish(conversationId, event) {
      await publisher.publish(`${prefix}${conversationId}`, JSON.stringify(event));
    },
    subscribe(conversationId, listener) {
      if (listeners.add(conversationId, listener).first) {
        subscriber.subscribe(`${prefix}${conversationId}`).catch((error: unknown) => {
          logger.warn("live redis subscribe failed", { error: describeError(error) });
        });
      }
      return () => {
        if (listeners.remove(conversationId, listener).last) {
          subscriber.unsubscribe(`${prefix}${conversationId}`).catch(() => {});
        }
      };
    },
    async close() {
      listeners.clear();
      await Promise.all([publisher, subscriber].map((client) => client.quit().catch(() => client.disconnect())));
    },
  };
}

/** Redis pub/sub when `redisUrl` is set, else in process. */
export function createLiveBus(options: { redisUrl?: string } = {}): LiveBus {
  const { redisUrl } = options;
  if (!redisUrl) return createMemoryLiveBus();
  return createRedisLiveBus(
    () => new IORedis(redisUrl, { maxRetriesPerRequest: 1, connectionName: "parley-live" }) as unknown as PubSubClient,
  );
}

/**
 * The channel the panels of a workspace listen on. Conversation ids are cuids, never with a colon,
 * so the two kinds of channel cannot meet.
 */
export function inboxChannel(workspaceId: string): string {
  return `inbox:${workspaceId}`;
}

/** Tells the workspace's open panels that a conversation changed (best effort, like publishLive). */
export async function publishInbox(
  bus: LiveBus | undefined,
  workspaceId: string,
  change: { conversationId: string; escalated?: boolean },
): Promise<void> {
  await publishLive(bus, inboxChannel(workspaceId), { type: "inbox", ...change });
}

/** Publishes without failing the caller (the change is stored; live delivery is best effort). */
export async function publishLive(bus: LiveBus | undefined, conversationId: string, event: LiveEvent): Promise<void> {
  if (!bus) return;
  try {
    await bus.publish(conversationId, event);
  } catch (error) {
    logger.warn("live publish failed", { error: describeError(error) });
  }
}
