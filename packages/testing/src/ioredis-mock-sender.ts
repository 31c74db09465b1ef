// Raw Redis commands on ioredis-mock (a Redis with Lua in JavaScript, for tests only), replying as
// Redis would: lets the requester tests and the in-process store's equivalence tests run
// @upstash/ratelimit's own scripts without a Redis server.
import { createHash, randomBytes } from "node:crypto";
import type { SendCommand } from "@parley/core/ratelimit";
import RedisMock from "ioredis-mock";

export type MockClient = InstanceType<typeof RedisMock>;

/** A fresh ioredis-mock with its own data (ioredis-mock shares data per host). */
export function freshRedisMock(): MockClient {
  return new RedisMock({ host: `parley-test-${randomBytes(6).toString("hex")}` });
}

/** Runs raw commands on ioredis-mock, replying as Redis would (see asRedisReply). */
export function mockCommandSender(mock: MockClient): SendCommand {
  const commands = mock as unknown as Record<string, unknown>;
  return async (command, args) => {
    const name = command.toLowerCase();
    // ioredis-mock has no SCRIPT command; the requester re-sends a script's text on NOSCRIPT, so
    // answering LOAD with the hash is enough.
    if (name === "script" && String(args[0]).toLowerCase() === "load") {
      return createHash("sha1").update(String(args[1])).digest("hex");
    }
    const method = commands[name];
    if (typeof method !== "function") throw new Error(`ERR unknown command '${command}'`);
    return asRedisReply(await method.apply(mock, args));
  };
}

/** Redis turns Lua numbers into integers (truncating) and Lua false into nil; ioredis-mock does not. */
function asRedisReply(value: unknown): unknown {
  if (typeof value === "number") return Math.trunc(value);
  if (value === false) return null;
  if (Array.isArray(value)) return value.map(asRedisReply);
  return value;
}
