// The app's settings (src/env.ts): the database's variables and the app's own, parsed at once.
import { EnvError } from "@parley/db";
import { afterEach, describe, expect, it } from "vitest";
import { appEnv, cliEnv, parseAppEnv, resetAppEnv } from "~/env.ts";

function errorOf(source: Record<string, string | undefined>): EnvError {
  try {
    parseAppEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return error as EnvError;
  }
  throw new Error("parseAppEnv accepted an invalid environment");
}

describe("parseAppEnv", () => {
  it("accepts an empty environment with the defaults", () => {
    const parsed = parseAppEnv({});
    // toMatchObject: variables added later need not be listed here to keep this test passing.
    expect(parsed).toMatchObject({
      NODE_ENV: "development",
      DATA_DIR: ".data",
      PORT: 3000,
      ADMIN_EMAIL: "admin@example.com",
      TRUST_PROXY: false,
      LLM_TIMEOUT_MS: 30_000,
      LOG_LEVEL: "info",
      HOST: "0.0.0.0",
      WEBHOOKS_ALLOW_LOCAL: false,
      VISITOR_MAIL_DELAY_SECONDS: 120,
      WIDGET_CONNECTIONS_SCALE: 1,
    });
    for (const name of [
      "DATABASE_URL",
      "APP_URL",
      "ADMIN_PASSWORD",
      "REDIS_URL",
      "UPSTASH_REDIS_REST_URL",
      "LLM_BASE_URL",
      "LLM_API_KEY",
      "EMBEDDINGS_BASE_URL",
      "EMBEDDINGS_API_KEY",
      "EMBEDDINGS_MODEL",
      "EMBEDDINGS_DIMENSIONS",
      "EMBEDDINGS_VECTOR_SEARCH",
      "SMTP_URL",
    ] as const) {
      expect(parsed[name], name).toBeUndefined();
    }
  });

  it("treats empty strings as unset and parses valid values", () => {
    const blank = parseAppEnv({ DATABASE_URL: "", REDIS_URL: "", APP_URL: "" });
    expect([blank.DATABASE_URL, blank.REDIS_URL, blank.APP_URL]).toEqual([undefined, undefined, undefined]);
    expect(
      parseAppEnv({
        DATABASE_URL: "postgresql://user:pw@db.internal:5432/parley",
        PORT: "8080",
        REDIS_URL: "redis://127.0.0.1:6379",
        TRUST_PROXY: "1",
        ADMIN_PASSWORD: "long enough",
        SMTP_URL: "smtp://mailer:s3cret@mail.example.com:587",
      }),
    ).toMatchObject({
      SMTP_URL: "smtp://mailer:s3cret@mail.example.com:587",
      DATABASE_URL: "postgresql://user:pw@db.internal:5432/parley",
      PORT: 8080,
      REDIS_URL: "redis://127.0.0.1:6379",
      TRUST_PROXY: { hops: 1 },
      ADMIN_PASSWORD: "long enough",
    });
  });

  it.each([
    ["DATABASE_URL", "mysql://x", "must be a postgres:// or postgresql:// URL"],
    ["PORT", "abc", ""],
    ["PORT", "70000", ""],
    ["REDIS_URL", "notaurl", ""],
    ["ADMIN_EMAIL", "not-an-email", ""],
    ["ADMIN_PASSWORD", "short", "must be at least 8 characters"],
    ["TRUST_PROXY", "yes", '"yes" is none of these'],
    ["TRUST_PROXY", "21", "at most 20"],
    ["TRUST_PROXY", "10.0.0.0/8, 10.0.0.1/33", '"10.0.0.1/33" is none of these'],
    ["TRUST_PROXY", "10.1/8", '"10.1/8" is none of these'],
    ["TRUST_PROXY", "proxy.internal", '"proxy.internal" is none of these'],
    ["LOG_LEVEL", "verbose", ""],
    ["HOST", "not a host!", "must be an IP address or a host name"],
    ["NEXTAUTH_SECRET", "too-short", "must be at least 32 characters"],
    ["EMBEDDINGS_BASE_URL", "not a url", ""],
    ["EMBEDDINGS_DIMENSIONS", "4", ""],
    ["EMBEDDINGS_DIMENSIONS", "many", ""],
    ["EMBEDDINGS_VECTOR_SEARCH", "faiss", ""],
    ["SMTP_URL", "https://mail.example.com", "must be an smtp:// or smtps:// URL"],
    ["SMTP_URL", "mail.example.com:587", "must be an smtp:// or smtps:// URL"],
    ["VISITOR_MAIL_DELAY_SECONDS", "3601", "<=3600"],
    ["VISITOR_MAIL_DELAY_SECONDS", "-1", ">=0"],
    ["WIDGET_CONNECTIONS_SCALE", "0", ">0"],
    ["WIDGET_CONNECTIONS_SCALE", "lots", ""],
    ["IMAGES_S3_ENDPOINT", "ftp://files.example.com", "must be an http:// or https:// URL"],
    ["IMAGES_S3_BUCKET", "Images_Bucket", "must be a bucket name"],
    ["IMAGES_S3_BUCKET", "ab", "must be a bucket name"],
    ["IMAGES_S3_BUCKET", "a".repeat(64), "must be a bucket name"],
    ["IMAGES_S3_REGION", "EU West", "must be a region name"],
    ["IMAGES_S3_ACCESS_KEY_ID", "x".repeat(1_025), ""],
  ])("rejects %s=%s with a message naming the variable", (name, value, reason) => {
    const error = errorOf({ [name]: value });
    expect(error.message).toMatch(new RegExp(`^Invalid environment variables:\\n  ${name}: .*${reason}`));
  });

  it.each([
    ["", false],
    ["false", false],
    ["0", false],
    ["true", { hops: 1 }],
    ["1", { hops: 1 }],
    ["2", { hops: 2 }],
    ["10.0.0.0/8", { proxies: ["10.0.0.0/8"] }],
    [" 10.0.0.0/8 , 192.0.2.10,2001:DB8::/32,::1 ", { proxies: ["10.0.0.0/8", "192.0.2.10/32", "2001:db8::/32", "::1/128"] }],
    ["::ffff:10.0.0.0/104", { proxies: ["10.0.0.0/8"] }],
  ])("reads TRUST_PROXY=%j as %j", (value, expected) => {
    expect(parseAppEnv({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it("reads WIDGET_CONNECTIONS_SCALE up or down (the e2e suite's shared address, its 4429 journey)", () => {
    expect(parseAppEnv({ WIDGET_CONNECTIONS_SCALE: "50" }).WIDGET_CONNECTIONS_SCALE).toBe(50);
    expect(parseAppEnv({ WIDGET_CONNECTIONS_SCALE: "0.1" }).WIDGET_CONNECTIONS_SCALE).toBe(0.1);
  });

  it("reads the embeddings endpoint's settings", () => {
    expect(
      parseAppEnv({
        EMBEDDINGS_BASE_URL: "https://embeddings.example/v1",
        EMBEDDINGS_API_KEY: "sk-1",
        EMBEDDINGS_MODEL: "text-embedding-3-small",
        EMBEDDINGS_DIMENSIONS: "512",
        EMBEDDINGS_VECTOR_SEARCH: "pgvector",
      }),
    ).toMatchObject({
      EMBEDDINGS_BASE_URL: "https://embeddings.example/v1",
      EMBEDDINGS_API_KEY: "sk-1",
      EMBEDDINGS_MODEL: "text-embedding-3-small",
      EMBEDDINGS_DIMENSIONS: 512,
      EMBEDDINGS_VECTOR_SEARCH: "pgvector",
    });
  });

  it("takes blank embeddings settings as unset", () => {
    expect(
      parseAppEnv({ EMBEDDINGS_BASE_URL: "", EMBEDDINGS_MODEL: "", EMBEDDINGS_DIMENSIONS: "", EMBEDDINGS_VECTOR_SEARCH: "" }),
    ).toMatchObject({
      EMBEDDINGS_BASE_URL: undefined,
      EMBEDDINGS_MODEL: "",
      EMBEDDINGS_DIMENSIONS: undefined,
      EMBEDDINGS_VECTOR_SEARCH: undefined,
    });
  });

  it("reads an image bucket's settings, the region us-east-1 unless set, and none by default", () => {
    const bucket = {
      IMAGES_S3_ENDPOINT: "https://s3.eu-west-1.amazonaws.com",
      IMAGES_S3_BUCKET: "parley-images",
      IMAGES_S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
      IMAGES_S3_SECRET_ACCESS_KEY: "secret",
    };
    expect(parseAppEnv(bucket)).toMatchObject({ ...bucket, IMAGES_S3_REGION: "us-east-1" });
    expect(parseAppEnv({ ...bucket, IMAGES_S3_REGION: "eu-west-1" }).IMAGES_S3_REGION).toBe("eu-west-1");
    const unset = parseAppEnv({ IMAGES_S3_ENDPOINT: "", IMAGES_S3_BUCKET: "" });
    for (const name of ["IMAGES_S3_ENDPOINT", "IMAGES_S3_BUCKET", "IMAGES_S3_ACCESS_KEY_ID", "IMAGES_S3_SECRET_ACCESS_KEY"] as const)
      expect(unset[name], name).toBeUndefined();
    // 63 characters is the longest bucket name S3 allows.
    expect(parseAppEnv({ ...bucket, IMAGES_S3_BUCKET: "a".repeat(63) }).IMAGES_S3_BUCKET).toBe("a".repeat(63));
  });

  it("refuses a bucket half configured, naming each variable missing", () => {
    const message = errorOf({ IMAGES_S3_ENDPOINT: "http://127.0.0.1:9000", IMAGES_S3_BUCKET: "images" }).message;
    expect(message).toContain(
      "IMAGES_S3_ACCESS_KEY_ID: required with IMAGES_S3_ENDPOINT, IMAGES_S3_BUCKET (an image bucket needs all four)",
    );
    expect(message).toContain("IMAGES_S3_SECRET_ACCESS_KEY: required with IMAGES_S3_ENDPOINT, IMAGES_S3_BUCKET");
  });

  it("names the database's bad variables and the app's in one message", () => {
    expect(() => parseAppEnv({ DATABASE_URL: "mysql://x", ADMIN_PASSWORD: "short" })).toThrow(
      "Invalid environment variables:\n  DATABASE_URL: must be a postgres:// or postgresql:// URL\n  ADMIN_PASSWORD: must be at least 8 characters",
    );
  });

  it("names every bad variable at once", () => {
    const lines = errorOf({ DATABASE_URL: "mysql://x", PORT: "abc", REDIS_URL: "notaurl" }).message.split("\n");
    expect(lines[0]).toBe("Invalid environment variables:");
    expect(
      lines
        .slice(1)
        .map((line) => line.trim().split(":")[0])
        .sort(),
    ).toEqual(["DATABASE_URL", "PORT", "REDIS_URL"]);
  });
});

describe("cliEnv", () => {
  const names = ["DATABASE_URL", "DATA_DIR", "PORT", "APP_URL", "ADMIN_EMAIL", "ADMIN_PASSWORD", "REDIS_URL"] as const;
  const saved = new Map(names.map((name) => [name, process.env[name]]));
  /** Exactly these of the variables above are set. */
  function setEnv(values: Partial<Record<(typeof names)[number], string>>): void {
    for (const name of names) {
      const value = values[name];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  afterEach(() => {
    setEnv(Object.fromEntries(saved));
  });

  it("reads the database's and the site's variables only (the command-line tools need no server settings)", () => {
    setEnv({
      DATA_DIR: "/tmp/cli",
      PORT: "4100",
      APP_URL: "https://help.example.com",
      ADMIN_PASSWORD: "long enough",
      REDIS_URL: "notaurl",
    });
    expect(cliEnv()).toEqual({
      DATA_DIR: "/tmp/cli",
      PORT: 4100,
      APP_URL: "https://help.example.com",
      ADMIN_EMAIL: "admin@example.com",
      ADMIN_PASSWORD: "long enough",
    });
    setEnv({ ADMIN_PASSWORD: "short" });
    expect(() => cliEnv()).toThrow("Invalid environment variables:\n  ADMIN_PASSWORD: must be at least 8 characters");
  });
});

describe("appEnv", () => {
  const saved = process.env.PORT;
  afterEach(() => {
    if (saved === undefined) delete process.env.PORT;
    else process.env.PORT = saved;
    resetAppEnv();
  });

  it("parses process.env once, until reset", () => {
    process.env.PORT = "4100";
    resetAppEnv();
    expect(appEnv().PORT).toBe(4100);
    process.env.PORT = "4200";
    expect(appEnv().PORT).toBe(4100);
    resetAppEnv();
    expect(appEnv().PORT).toBe(4200);
    process.env.PORT = "abc";
    resetAppEnv();
    expect(() => appEnv()).toThrow(/PORT/);
  });
});
