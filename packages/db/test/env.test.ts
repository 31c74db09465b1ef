// The database package's settings (src/env.ts); the app's own are tested with the app's parser.
import { dbEnv, EnvError, parseDbEnv, resetDbEnv } from "@parley/db";
import { afterEach, describe, expect, it } from "vitest";

describe("parseDbEnv", () => {
  it("reads only the database's variables, with their defaults", () => {
    expect(parseDbEnv({ REDIS_URL: "redis://x:6379", LOG_LEVEL: "debug" })).toEqual({
      NODE_ENV: "development",
      DATA_DIR: ".data",
      PORT: 3000,
      ADMIN_EMAIL: "admin@example.com",
    });
  });

  it("names each bad variable", () => {
    expect(() => parseDbEnv({ DATABASE_URL: "mysql://x", ADMIN_PASSWORD: "short" })).toThrow(EnvError);
    expect(() => parseDbEnv({ DATABASE_URL: "mysql://x", ADMIN_PASSWORD: "short" })).toThrow(
      "Invalid environment variables:\n  DATABASE_URL: must be a postgres:// or postgresql:// URL\n  ADMIN_PASSWORD: must be at least 8 characters",
    );
  });
});

describe("dbEnv", () => {
  const saved = process.env.DATA_DIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.DATA_DIR;
    else process.env.DATA_DIR = saved;
    resetDbEnv();
  });

  it("parses process.env once, until reset", () => {
    process.env.DATA_DIR = "/tmp/a";
    resetDbEnv();
    expect(dbEnv().DATA_DIR).toBe("/tmp/a");
    process.env.DATA_DIR = "/tmp/b";
    expect(dbEnv().DATA_DIR).toBe("/tmp/a");
    resetDbEnv();
    expect(dbEnv().DATA_DIR).toBe("/tmp/b");
  });
});
