// The Redis-compatible stores the rate-limit tests run @upstash/ratelimit's scripts on: ioredis-mock
// always, and the real Redis at REDIS_URL when it is set (one connection per test file, closed by
// closeRealRedis in afterAll).

import type { SendCommand } from "@parley/core/ratelimit";
import IORedis from "ioredis";
import { freshRedisMock, mockCommandSender } from "./ioredis-mock-sender.ts";

export const redisUrl = process.env.REDIS_URL || undefined;

let connection: IORedis | undefined;

/** The file's connection to the real Redis (REDIS_URL must be set). */
export function realRedis(): IORedis {
  connection ??= new IORedis(redisUrl ?? "");
  return connection;
}

export async function closeRealRedis(): Promise<void> {
  await connection?.quit();
  connection = undefined;
}

/** Each store with a sender of raw commands to it; `missing` when it cannot run here. */
export const COMMAND_SENDERS = [
  { name: "ioredis-mock", missing: false, sender: (): SendCommand => mockCommandSender(freshRedisMock()) },
  {
    name: "Redis (REDIS_URL)",
    missing: !redisUrl,
    sender: (): SendCommand => {
      const client = realRedis();
      return (command, args) => client.call(command, ...args);
    },
  },
] as const;
