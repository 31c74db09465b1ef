// Uploaded images (article pictures, logos): what is accepted (sniffed from the bytes, within the
// size limit, by the roles that edit articles or an agent's look), where the bytes are stored (the
// database by default, an S3-compatible bucket when configured: here a fake one on 127.0.0.1) and
// how they are served back.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AppError } from "@parley/core";
import {
  IMAGE_READS_PER_IP_PER_MINUTE,
  IMAGE_UPLOAD_MAX_BYTES,
  IMAGE_UPLOADS_PER_HOUR,
  IMAGES_ERRORS,
  imageBucketConfigFrom,
  isUploadedImagePath,
  s3ImageBucket,
  serveImage,
  sniffImageType,
  uploadImage,
} from "@parley/core/images";
import type { AdminScope, Role } from "@parley/core/people";
import { freezeClockAtWindowStart } from "@parley/testing/clock";
import { createTestContext, type TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";

// The smallest real files of each type (a 1x1 pixel), and what only looks like one.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.from([0x1a, 0, 0, 0]), Buffer.from("WEBPVP8L"), Buffer.alloc(14)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

describe("sniffImageType", () => {
  it("reads PNG, JPEG, GIF and WebP from their first bytes", () => {
    expect(sniffImageType(PNG)).toEqual({ contentType: "image/png", extension: "png" });
    expect(sniffImageType(JPEG)).toEqual({ contentType: "image/jpeg", extension: "jpg" });
    expect(sniffImageType(GIF)).toEqual({ contentType: "image/gif", extension: "gif" });
    expect(sniffImageType(WEBP)).toEqual({ contentType: "image/webp", extension: "webp" });
  });

  it("refuses SVG, HTML, text, a truncated signature and RIFF files that are not WebP", () => {
    for (const bytes of [
      SVG,
      Buffer.from("<!doctype html><script>alert(1)</script>"),
      Buffer.from("hello"),
      PNG.subarray(0, 7),
      Buffer.from("GIF88a"),
      Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WAVE")]),
      new Uint8Array(0),
    ])
      expect(sniffImageType(bytes)).toBeNull();
  });
});

describe("isUploadedImagePath", () => {
  it("takes only this site's image paths: a 64-hex-digit name and an accepted extension", () => {
    expect(isUploadedImagePath(`/api/images/${"a".repeat(64)}.png`)).toBe(true);
    expect(isUploadedImagePath(`/api/images/${"a".repeat(64)}.svg`)).toBe(false);
    expect(isUploadedImagePath(`/api/images/${"a".repeat(63)}.png`)).toBe(false);
    expect(isUploadedImagePath(`/api/images/../${"a".repeat(61)}.png`)).toBe(false);
    expect(isUploadedImagePath(`//evil.example/api/images/${"a".repeat(64)}.png`)).toBe(false);
  });
});

const APP_URL = "http://localhost:3000";
let ctx: TestContext;
const scopeOf = (role: Role, userId = `user-${role}`): AdminScope => ({ userId, workspaceId: "ws-images", role });
const bodyOf = (bytes: Uint8Array) => async (maxBytes: number) => bytes.subarray(0, maxBytes + 1);

beforeAll(async () => {
  ctx = await createTestContext({ appUrl: APP_URL });
  await ctx.db.prisma.workspace.create({ data: { id: "ws-images", name: "Images" } });
  await ctx.db.prisma.workspace.create({ data: { id: "ws-other", name: "Other" } });
  for (const role of ["owner", "admin", "editor", "support"] as const)
    await ctx.db.prisma.user.create({
      data: { id: `user-${role}`, workspaceId: "ws-images", email: `${role}@images.example`, passwordHash: "x", role },
    });
  await ctx.db.prisma.user.create({
    data: { id: "user-other", workspaceId: "ws-other", email: "other@images.example", passwordHash: "x" },
  });
});
afterAll(async () => {
  await ctx?.close();
});

const codeOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

describe("uploadImage (bytes in the database)", () => {
  it("stores the image under its content hash and gives its path and absolute address", async () => {
    const image = await uploadImage(ctx, scopeOf("editor"), bodyOf(PNG));
    expect(image.name).toMatch(/^[0-9a-f]{64}\.png$/);
    expect(image).toEqual({
      name: image.name,
      path: `/api/images/${image.name}`,
      url: `${APP_URL}/api/images/${image.name}`,
      contentType: "image/png",
      size: PNG.length,
    });
    const row = await ctx.db.prisma.uploadedImage.findUniqueOrThrow({
      where: { workspaceId_name: { workspaceId: "ws-images", name: image.name } },
    });
    expect(Buffer.from(row.data!)).toEqual(PNG);
    expect(row).toMatchObject({ contentType: "image/png", size: PNG.length, createdById: "user-editor" });
  });

  it("keeps one copy of an image uploaded twice: the same address", async () => {
    const first = await uploadImage(ctx, scopeOf("owner"), bodyOf(GIF));
    const second = await uploadImage(ctx, scopeOf("admin"), bodyOf(GIF));
    expect(second.path).toBe(first.path);
    expect(await ctx.db.prisma.uploadedImage.count({ where: { name: first.name } })).toBe(1);
  });

  it("lets owners, admins and editors upload, and refuses support teammates with the readable refusal", async () => {
    for (const role of ["owner", "admin", "editor"] as const)
      await expect(uploadImage(ctx, scopeOf(role), bodyOf(JPEG))).resolves.toBeTruthy();
    const refused = await codeOf(uploadImage(ctx, scopeOf("support"), bodyOf(WEBP)));
    expect(refused.toBody()).toEqual({ error: "Forbidden" });
    expect(refused.status).toBe(403);
  });

  it("refuses SVG and anything else that is not an accepted image with 415", async () => {
    const refused = await codeOf(uploadImage(ctx, scopeOf("editor"), bodyOf(SVG)));
    expect(refused.code).toBe(IMAGES_ERRORS.IMAGE_TYPE_NOT_ACCEPTED.code);
    expect(refused.status).toBe(415);
    expect(refused.toBody()).toEqual({ error: "Upload a PNG, JPEG, GIF or WebP image" });
    expect(await ctx.db.prisma.uploadedImage.count({ where: { name: { endsWith: ".svg" } } })).toBe(0);
  });

  it("refuses an empty upload (400) and one past the size limit (413), checked whatever the reader hands over", async () => {
    const empty = await codeOf(uploadImage(ctx, scopeOf("editor"), bodyOf(new Uint8Array(0))));
    expect([empty.status, empty.toBody()]).toEqual([
      400,
      { error: "Invalid request", details: "file: Choose an image (the upload is empty)" },
    ]);
    const large = Buffer.concat([PNG, Buffer.alloc(IMAGE_UPLOAD_MAX_BYTES)]);
    const tooLarge = await codeOf(uploadImage(ctx, scopeOf("editor"), bodyOf(large)));
    expect([tooLarge.status, tooLarge.toBody()]).toEqual([
      413,
      { error: "Payload too large", details: "file: An image may be at most 5 MB" },
    ]);
    // Exactly at the limit is accepted.
    const atLimit = Buffer.concat([PNG, Buffer.alloc(IMAGE_UPLOAD_MAX_BYTES - PNG.length)]);
    await expect(uploadImage(ctx, scopeOf("editor"), bodyOf(atLimit))).resolves.toMatchObject({ size: IMAGE_UPLOAD_MAX_BYTES });
  });

  it("counts each person's uploads: past 60 in an hour, 429 with Retry-After", async () => {
    await ctx.db.prisma.user.create({
      data: { id: "user-burst", workspaceId: "ws-images", email: "burst@images.example", passwordHash: "x", role: "editor" },
    });
    const burst = scopeOf("editor", "user-burst");
    for (let upload = 0; upload < IMAGE_UPLOADS_PER_HOUR; upload++) await uploadImage(ctx, burst, bodyOf(GIF));
    const refused = await codeOf(uploadImage(ctx, burst, bodyOf(GIF)));
    expect([refused.status, refused.toBody()]).toEqual([429, { error: "Rate limit exceeded" }]);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // Another person's uploads are counted apart.
    await expect(uploadImage(ctx, scopeOf("owner"), bodyOf(GIF))).resolves.toBeTruthy();
  });

  it("asks the reader for at most the limit", async () => {
    let asked = 0;
    await uploadImage(ctx, scopeOf("editor"), async (maxBytes) => {
      asked = maxBytes;
      return PNG;
    });
    expect(asked).toBe(IMAGE_UPLOAD_MAX_BYTES);
  });
});

describe("serveImage", () => {
  it("answers the bytes with the sniffed type, nosniff, a year's cache and a sandbox", async () => {
    const image = await uploadImage(ctx, scopeOf("editor"), bodyOf(PNG));
    const result = await serveImage(ctx, image.name, "198.51.100.7");
    expect(result.status).toBe(200);
    expect(Buffer.from(result.bytes!)).toEqual(PNG);
    expect(result.headers).toMatchObject({
      "content-type": "image/png",
      "content-length": String(PNG.length),
      "x-content-type-options": "nosniff",
      "cache-control": "public, max-age=31536000, immutable",
      "content-security-policy": "default-src 'none'; sandbox",
    });
  });

  it(`answers 429 with Retry-After past ${IMAGE_READS_PER_IP_PER_MINUTE} reads a minute from one address, another address still served`, async () => {
    const image = await uploadImage(ctx, scopeOf("editor"), bodyOf(GIF));
    freezeClockAtWindowStart(60);
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const statuses: number[] = [];
    for (let i = 0; i <= IMAGE_READS_PER_IP_PER_MINUTE; i++) statuses.push((await serveImage(ctx, image.name, "203.0.113.50")).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(IMAGE_READS_PER_IP_PER_MINUTE);
    const refused = await serveImage(ctx, image.name, "203.0.113.50");
    expect([refused.status, refused.json]).toEqual([429, { error: "Rate limit exceeded" }]);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect((await serveImage(ctx, image.name, "203.0.113.51")).status).toBe(200);
  });

  it("answers 404 Not found for an unknown name and for names that are not image names", async () => {
    for (const name of [`${"0".repeat(64)}.png`, "logo.png", `${"a".repeat(64)}.svg`, "..%2f..%2fetc%2fpasswd"]) {
      const result = await serveImage(ctx, name, "198.51.100.7");
      expect([result.status, result.json]).toEqual([404, { error: "Not found" }]);
      expect(result.headers["cache-control"]).toBe("no-store");
    }
  });
});

/** A fake S3: PUT and GET of path-style objects, refusing requests that are not SigV4-signed. */
function fakeS3(): Promise<{ server: Server; endpoint: string; objects: Map<string, { body: Buffer; type: string }>; requests: string[] }> {
  const objects = new Map<string, { body: Buffer; type: string }>();
  const requests: string[] = [];
  const server = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    requests.push(`${request.method} ${request.url}`);
    if (!/^AWS4-HMAC-SHA256 Credential=AKIATEST\/\d{8}\/eu-test-1\/s3\/aws4_request/.test(request.headers.authorization ?? "")) {
      response.writeHead(403).end();
      return;
    }
    const key = request.url ?? "";
    if (request.method === "PUT") {
      objects.set(key, { body: Buffer.concat(chunks), type: request.headers["content-type"] ?? "" });
      response.writeHead(200).end();
    } else if (request.method === "GET" && objects.has(key)) {
      response.writeHead(200, { "content-type": objects.get(key)!.type }).end(objects.get(key)!.body);
    } else response.writeHead(404).end("<Error><Code>NoSuchKey</Code></Error>");
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, objects, requests }),
    ),
  );
}

describe("uploadImage and serveImage with an S3-compatible bucket", () => {
  it("puts the bytes in the bucket (signed), keeps only the row in the database, and serves them back", async () => {
    const s3 = await fakeS3();
    try {
      const config = imageBucketConfigFrom({
        IMAGES_S3_ENDPOINT: s3.endpoint,
        IMAGES_S3_BUCKET: "parley-images",
        IMAGES_S3_REGION: "eu-test-1",
        IMAGES_S3_ACCESS_KEY_ID: "AKIATEST",
        IMAGES_S3_SECRET_ACCESS_KEY: "secret",
      });
      const withBucket = { ...ctx, imageBucket: s3ImageBucket(config!) };
      const scope: AdminScope = { userId: "user-other", workspaceId: "ws-other", role: "owner" };
      const image = await uploadImage(withBucket, scope, bodyOf(WEBP));
      const key = `/parley-images/images/${image.name}`;
      expect(s3.objects.get(key)).toEqual({ body: WEBP, type: "image/webp" });
      const row = await ctx.db.prisma.uploadedImage.findUniqueOrThrow({
        where: { workspaceId_name: { workspaceId: "ws-other", name: image.name } },
      });
      expect(row.data).toBeNull();
      const served = await serveImage(withBucket, image.name, "198.51.100.7");
      expect([served.status, served.headers["content-type"]]).toEqual([200, "image/webp"]);
      expect(Buffer.from(served.bytes!)).toEqual(WEBP);
      expect(s3.requests).toEqual([`PUT ${key}`, `GET ${key}`]);
      // The object gone from the bucket: 404, as for any unknown image.
      s3.objects.clear();
      expect((await serveImage(withBucket, image.name, "198.51.100.7")).status).toBe(404);
    } finally {
      s3.server.close();
    }
  });

  it("stores nothing when the bucket refuses the upload", async () => {
    const s3 = await fakeS3();
    try {
      const bucket = s3ImageBucket({
        endpoint: s3.endpoint,
        bucket: "parley-images",
        region: "eu-test-1",
        accessKeyId: "WRONGKEY",
        secretAccessKey: "secret",
      });
      const scope: AdminScope = { userId: "user-other", workspaceId: "ws-other", role: "owner" };
      await expect(uploadImage({ ...ctx, imageBucket: bucket }, scope, bodyOf(JPEG))).rejects.toThrow(
        "The image bucket refused the upload (HTTP 403)",
      );
      expect(await ctx.db.prisma.uploadedImage.count({ where: { workspaceId: "ws-other", contentType: "image/jpeg" } })).toBe(0);
    } finally {
      s3.server.close();
    }
  });
});
