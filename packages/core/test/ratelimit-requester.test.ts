// The Upstash-REST-to-Redis requester under @upstash/redis: single commands, the pipeline path,
// Upstash's shebang scripts and their hashes, on ioredis-mock and (with REDIS_URL) a real Redis.
import { createHash, randomBytes } from "node:crypto";
import { COMMAND_SENDERS, closeRealRedis, realRedis, redisUrl } from "@parley/testing/command-senders";
import { freshRedisMock, mockCommandSender } from "@parley/testing/ioredis-mock-sender";
import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createRedisRequester, type SendCommand, stripShebang } from "../src/platform/ratelimit/requester.ts";

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");
const unique = () => randomBytes(6).toString("hex");

/** A script in Upstash's style; the unique comment keeps it unknown to the server at first. */
function upstashScript(): string {
  return `#!lua flags=allow-key-locking
  -- ${unique()}
  local value = redis.call("INCRBY", KEYS[1], tonumber(ARGV[1]))
  return {value, 2.9}`;
}

const freshMock = freshRedisMock;

afterAll(closeRealRedis);

const backends = COMMAND_SENDERS;

describe.each(backends)("requester on $name", ({ missing, sender }) => {
  const test = it.skipIf(missing);

  /** @upstash/redis over the requester, recording what reaches the backend. */
  function client() {
    const send = sender();
    const sent: (string | number)[][] = [];
    const recording: SendCommand = (command, args) => {
      sent.push([command.toLowerCase(), ...args]);
      return send(command, args);
    };
    return { redis: new Redis(createRedisRequester(recording)), sent };
  }

  test("runs single commands and answers nil as null, unencoded", async () => {
    const { redis } = client();
    const key = `parley:test:${unique()}`;
    expect(await redis.get(key)).toBeNull();
    expect(await redis.set(key, "héllo ✓", { px: 10_000 })).toBe("OK");
    expect(await redis.get(key)).toBe("héllo ✓");
    expect(await redis.incrby(`${key}:n`, 5)).toBe(5);
    await redis.del(key, `${key}:n`);
  });

  test("turns a Redis error into an error for the caller", async () => {
    const { redis } = client();
    await expect(redis.exec(["nosuchcommand", "x"])).rejects.toThrow(/unknown command/i);
    await expect(redis.evalsha("0".repeat(40), [], [])).rejects.toThrow(/NOSCRIPT/);
  });

  test("answers the pipeline path with one {result}/{error} per command, in order", async () => {
    const { redis, sent } = client();
    const key = `parley:test:${unique()}`;
    const results = await redis
      .pipeline()
      .set(key, "v", { px: 10_000 })
      .get(key)
      .evalsha("0".repeat(40), [], [])
      .del(key)
      .exec({ keepErrors: true });
    expect(results[0]).toEqual({ result: "OK", error: undefined });
    expect(results[1]).toEqual({ result: "v", error: undefined });
    expect(results[2]?.error).toMatch(/NOSCRIPT/);
    expect(results[3]).toEqual({ result: 1, error: undefined });
    expect(sent.map(([command]) => command)).toEqual(["set", "get", "evalsha", "del"]);
  });

  test("runs Upstash's shebang scripts: NOSCRIPT first, then EVAL of the stripped text, then EVALSHA by the mapped hash", async () => {
    const { redis, sent } = client();
    const script = upstashScript();
    const key = `parley:test:${unique()}`;
    // The library's first try: EVALSHA with the hash of the original script.
    await expect(redis.evalsha(sha1(script), [key], [2])).rejects.toThrow(/NOSCRIPT/);
    // Its fallback; Lua numbers come back as Redis integers.
    expect(await redis.eval(script, [key], [2])).toEqual([2, 2]);
    expect(sent.at(-1)?.[1]).toBe(stripShebang(script));
    // From now on the original hash works, answered with the stripped script's hash.
    expect(await redis.evalsha(sha1(script), [key], [3])).toEqual([5, 2]);
    expect(sent.at(-1)?.slice(0, 2)).toEqual(["evalsha", sha1(stripShebang(script))]);
    await redis.del(key);
  });

  test("SCRIPT LOAD answers the original hash, which then runs", async () => {
    const { redis } = client();
    const script = upstashScript();
    const key = `parley:test:${unique()}`;
    expect(await redis.scriptLoad(script)).toBe(sha1(script));
    expect(await redis.evalsha(sha1(script), [key], [7])).toEqual([7, 2]);
    await redis.del(key);
  });

  test("@upstash/ratelimit's sliding window runs on it (30 pass, the 31st does not)", async () => {
    const { redis } = client();
    const ratelimit = new Ratelimit({
      redis,
      limiter: Ratelimit.slidingWindow(30, "60 s"),
      prefix: `parley:test:${unique()}`,
      ephemeralCache: false,
      enableTelemetry: false,
    });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.UTC(2030, 0, 1, 0, 0, 1));
    try {
      for (let sent = 1; sent <= 30; sent++) {
        expect(await ratelimit.limit("id")).toMatchObject({ success: true, limit: 30, remaining: 30 - sent });
      }
      expect(await ratelimit.limit("id")).toMatchObject({ success: false, remaining: 0 });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("scripts", () => {
  it("strips only a leading shebang line", () => {
    expect(stripShebang("#!lua flags=allow-key-locking\n  local a = 1\nreturn a")).toBe("  local a = 1\nreturn a");
    expect(stripShebang("return 1 -- #!lua")).toBe("return 1 -- #!lua");
  });

  it.skipIf(!redisUrl)("open-source Redis refuses Upstash's shebang flag as is (why the requester strips it)", async () => {
    await expect(realRedis().call("eval", upstashScript(), "1", `parley:test:${unique()}`, "1")).rejects.toThrow(/shebang/i);
  });

  it("re-sends a known script when the server has lost it (restart, SCRIPT FLUSH)", async () => {
    let target = freshMock();
    const send: SendCommand = (command, args) => mockCommandSender(target)(command, args);
    const redis = new Redis(createRedisRequester(send));
    const script = upstashScript();
    expect(await redis.eval(script, ["k"], [1])).toEqual([1, 2]);
    target = freshMock(); // a server that never saw the script, and has no "k" either
    expect(await redis.evalsha(sha1(script), ["k"], [4])).toEqual([4, 2]);
  });

  it("rejects Upstash REST paths it does not speak", async () => {
    const requester = createRedisRequester(mockCommandSender(freshMock()));
    await expect(requester.request({ path: ["multi-exec"], body: [["get", "k"]] })).rejects.toThrow(/multi-exec/);
  });
});
