// The database package's settings (src/env.ts); the app's own are tested with the app's parser.
import { dbEnv, EnvError, parseDbEnv, resetDbEnv } from "@parley/db";
import { afterEach, describe, expect, it } from "vitest";

describe("parseDbEnv", () => {
  it("reads only the database's variables, with their defaults (the app's, PORT, APP_URL and ADMIN_*, are the app's)", () => {
    expect(parseDbEnv({ REDIS_URL: "redis://x:6379", LOG_LEVEL: "debug", PORT: "abc", ADMIN_PASSWORD: "short" })).toEqual({
      DATA_DIR: ".data",
    });
  });

  it("names each bad variable", () => {
    expect(() => parseDbEnv({ DATABASE_URL: "mysql://x", DATA_DIR: "" })).toThrow(EnvError);
    expect(() => parseDbEnv({ DATABASE_URL: "mysql://x", DATA_DIR: "" })).toThrow(
      "Invalid environment variables:\n  DATABASE_URL: must be a postgres:// or postgresql:// URL\n  DATA_DIR: Too small: expected string to have >=1 characters",
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
