// POST /api/panel/images and GET /api/images/{name} through the routes, with a real database and
// an explicit session: 201 with the image's addresses, the spec's error body for 401, 403, 413 and
// 415, and the image served back with its type, nosniff and a year's cache.
import { IMAGE_UPLOAD_MAX_BYTES } from "@parley/core/images";
import type { AdminScope } from "@parley/core/people";
import { createTestContext, type TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageRoute, uploadImageRoute } from "./support/routes.ts";

const APP_URL = "http://localhost:3000";
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
let ctx: TestContext;
const editor: AdminScope = { userId: "route-editor", workspaceId: "route-ws", role: "editor" };
const support: AdminScope = { userId: "route-support", workspaceId: "route-ws", role: "support" };

beforeAll(async () => {
  ctx = await createTestContext({ appUrl: APP_URL });
  await ctx.db.prisma.workspace.create({ data: { id: "route-ws", name: "Route" } });
  for (const scope of [editor, support])
    await ctx.db.prisma.user.create({
      data: { id: scope.userId, workspaceId: scope.workspaceId, email: `${scope.role}@route.example`, passwordHash: "x", role: scope.role },
    });
});
afterAll(async () => {
  await ctx?.close();
});

function upload(body: Uint8Array, headers: Record<string, string> = { origin: APP_URL }): Request {
  return new Request(`${APP_URL}/api/panel/images`, {
    method: "POST",
    headers: { host: "localhost:3000", "content-type": "application/octet-stream", ...headers },
    body: body as Uint8Array<ArrayBuffer>,
  });
}

async function expectError(response: Response, status: number, body: { error: string; details?: string }): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(await response.json()).toEqual(body);
}

describe("POST /api/panel/images", () => {
  it("answers 201 with the image's name, path and absolute address", async () => {
    const response = await uploadImageRoute(ctx, upload(PNG), editor);
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { data } = await response.json();
    expect(data).toEqual({
      name: expect.stringMatching(/^[0-9a-f]{64}\.png$/),
      path: `/api/images/${data.name}`,
      url: `${APP_URL}/api/images/${data.name}`,
      contentType: "image/png",
      size: PNG.length,
    });
  });

  it("answers 401 without a session, 403 from another site or for a support teammate", async () => {
    await expectError(await uploadImageRoute(ctx, upload(PNG), null), 401, { error: "Unauthorized" });
    await expectError(await uploadImageRoute(ctx, upload(PNG, { origin: "https://evil.example" }), editor), 403, { error: "Forbidden" });
    await expectError(await uploadImageRoute(ctx, upload(PNG), support), 403, { error: "Forbidden" });
  });

  it("answers 415 for an SVG (whatever its declared type) and 400 for an empty body", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    await expectError(await uploadImageRoute(ctx, upload(svg, { origin: APP_URL, "content-type": "image/png" }), editor), 415, {
      error: "Upload a PNG, JPEG, GIF or WebP image",
    });
    await expectError(await uploadImageRoute(ctx, upload(new Uint8Array(0)), editor), 400, {
      error: "Invalid request",
      details: "file: Choose an image (the upload is empty)",
    });
  });

  it("answers 413 for a body past the limit, before storing anything", async () => {
    const before = await ctx.db.prisma.uploadedImage.count();
    const large = Buffer.concat([PNG, Buffer.alloc(IMAGE_UPLOAD_MAX_BYTES)]);
    const response = await uploadImageRoute(ctx, upload(large), editor);
    expect(response.status).toBe(413);
    expect((await response.json()).error).toBe("Payload too large");
    expect(await ctx.db.prisma.uploadedImage.count()).toBe(before);
  });
});

describe("GET /api/images/{name}", () => {
  it("serves the image with its type, nosniff, a year's cache and a sandbox", async () => {
    const { data } = await (await uploadImageRoute(ctx, upload(PNG), editor)).json();
    const response = await imageRoute(ctx, new Request(`${APP_URL}${data.path}`), { name: data.name });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);
  });

  it("answers 404 Not found for an unknown image, and 405 naming GET for a write", async () => {
    await expectError(await imageRoute(ctx, new Request(`${APP_URL}/api/images/x.png`), { name: `${"0".repeat(64)}.png` }), 404, {
      error: "Not found",
    });
    const put = await imageRoute(ctx, new Request(`${APP_URL}/api/images/x.png`, { method: "PUT", body: "x" }), { name: "x.png" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, HEAD");
  });
});
