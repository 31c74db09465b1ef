// Each test file's apps start on fresh rate limits: the suite's Redis outlives a file, and a file
// that floods sign-ins or messages from 127.0.0.1 (bad-input's fuzzing, hardening's flood, the
// Redis unit suite run just before) would otherwise have used up the next file's budgets for the
// window (a used-up sign-in budget refuses every sign-in of that address on every instance).
// Files run one at a time (vitest.reliability.config.ts), so clearing at a file's start is safe.
import { KEY_PREFIX } from "@parley/core/ratelimit";
import IORedis from "ioredis";
import { beforeAll } from "vitest";
import { redisUrl } from "./apps.ts";

beforeAll(async () => {
  const client = new IORedis(redisUrl(), { maxRetriesPerRequest: 1 });
  try {
    let cursor = "0";
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", `${KEY_PREFIX}:*`, "COUNT", 1000);
      if (keys.length > 0) await client.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    client.disconnect();
  }
});
