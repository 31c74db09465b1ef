// Images uploaded from the panel (a picture in an article, an agent's logo) and their public
// address. An upload is checked in this order: who may (the permission table's images.upload),
// its size, what it is (sniffed from the bytes), then the person's hourly limit; it is stored under
// the SHA-256 of its bytes, so the same picture uploaded again is the same address. The bytes go
// to the S3-compatible bucket when one is configured, else into the database row: every instance
// serves every image either way, and a database backup carries them.
import { createHash } from "node:crypto";
import { assertMayCall } from "../people/permissions.ts";
import type { AdminScope } from "../people/scope.ts";
import { limitAddress } from "../platform/client-ip.ts";
import type { PlatformContext } from "../platform/context.ts";
import { AppError } from "../platform/errors.ts";
import { enforceRateLimit } from "../platform/ratelimit/index.ts";
import { errorResult, type HttpResult, jsonResult } from "../platform/results.ts";
import type { ImageBucket } from "./bucket.ts";
import { IMAGES_ERRORS } from "./errors.ts";
import { IMAGE_CACHE_SECONDS, IMAGE_READS_PER_IP_PER_MINUTE, IMAGE_UPLOAD_MAX_BYTES, IMAGE_UPLOADS_PER_HOUR } from "./limits.ts";
import { IMAGE_NAME, imagePath } from "./paths.ts";
import { sniffImageType } from "./sniff.ts";

/** What the image routes need beyond the platform: the bucket, when IMAGES_S3_* configure one. */
export interface ImagesContext extends PlatformContext {
  imageBucket?: ImageBucket;
}

/** The upload route's operation, as the permission table names it. */
export const UPLOAD_IMAGE_OPERATION = "POST /api/panel/images";
const UPLOAD_POLICY = { name: "image-uploads", limit: IMAGE_UPLOADS_PER_HOUR, windowSeconds: 3600 };
const READ_POLICY = { name: "image-reads", limit: IMAGE_READS_PER_IP_PER_MINUTE, windowSeconds: 60 };

export interface UploadedImage {
  name: string;
  /** The path on this site (what a logo stores). */
  path: string;
  /** The absolute address (what an article's Markdown holds, so it reads the same through the help API). */
  url: string;
  contentType: string;
  size: number;
}

const tooLarge = () =>
  new AppError("PAYLOAD_TOO_LARGE", { details: `file: An image may be at most ${IMAGE_UPLOAD_MAX_BYTES / 1024 / 1024} MB` });

/**
 * Stores an uploaded image for the person's workspace. `readBody` (the route's transport) reads at
 * most IMAGE_UPLOAD_MAX_BYTES and refuses more with a 413.
 */
export async function uploadImage(
  ctx: ImagesContext,
  scope: AdminScope,
  readBody: (maxBytes: number) => Promise<Uint8Array>,
): Promise<UploadedImage> {
  assertMayCall(scope, UPLOAD_IMAGE_OPERATION);
  const bytes = await readBody(IMAGE_UPLOAD_MAX_BYTES);
  if (bytes.length === 0) throw new AppError("INVALID_REQUEST", { details: "file: Choose an image (the upload is empty)" });
  if (bytes.length > IMAGE_UPLOAD_MAX_BYTES) throw tooLarge();
  const type = sniffImageType(bytes);
  if (!type) throw new AppError(IMAGES_ERRORS.IMAGE_TYPE_NOT_ACCEPTED);
  await enforceRateLimit(ctx.limiters.configured(UPLOAD_POLICY), scope.userId);
  const name = `${createHash("sha256").update(bytes).digest("hex")}.${type.extension}`;
  const key = { workspaceId_name: { workspaceId: scope.workspaceId, name } };
  const stored = await ctx.db.prisma.uploadedImage.findUnique({ where: key, select: { name: true } });
  if (!stored) {
    if (ctx.imageBucket) await ctx.imageBucket.put(name, bytes, type.contentType);
    await ctx.db.prisma.uploadedImage.upsert({
      where: key,
      create: {
        workspaceId: scope.workspaceId,
        name,
        contentType: type.contentType,
        size: bytes.length,
        data: ctx.imageBucket ? null : (bytes as Uint8Array<ArrayBuffer>),
        createdById: scope.userId,
        createdAt: ctx.now(),
      },
      update: {},
    });
  }
  const path = imagePath(name);
  return { name, path, url: `${ctx.appUrl}${path}`, contentType: type.contentType, size: bytes.length };
}

/** The upload route's answer: 201 with the image's addresses. */
export async function uploadImageResult(
  ctx: ImagesContext,
  scope: AdminScope | null,
  sameOrigin: boolean,
  readBody: (maxBytes: number) => Promise<Uint8Array>,
): Promise<HttpResult> {
  const headers = { "cache-control": "no-store" };
  try {
    if (!scope) throw new AppError("UNAUTHORIZED");
    if (!sameOrigin) throw new AppError("FORBIDDEN");
    return jsonResult({ data: await uploadImage(ctx, scope, readBody) }, 201, headers);
  } catch (error) {
    return errorResult(error, headers);
  }
}

/**
 * GET /api/images/{name}: the image with its sniffed type, never sniffed again by the browser,
 * cached for a year (the name is the content's hash), and unable to run anything even if opened
 * as a page. 404 `Not found` for any other name; 429 past IMAGE_READS_PER_IP_PER_MINUTE from one address.
 */
export async function serveImage(ctx: ImagesContext, name: string, clientIp: string): Promise<HttpResult> {
  try {
    await enforceRateLimit(ctx.limiters.configured(READ_POLICY), limitAddress(clientIp));
    if (!IMAGE_NAME.test(name)) throw new AppError("NOT_FOUND");
    const row = await ctx.db.prisma.uploadedImage.findFirst({ where: { name }, select: { contentType: true, data: true } });
    const bytes = row ? (row.data ?? (await ctx.imageBucket?.get(name)) ?? null) : null;
    if (!row || !bytes) throw new AppError("NOT_FOUND");
    return {
      status: 200,
      headers: {
        "content-type": row.contentType,
        "content-length": String(bytes.length),
        "x-content-type-options": "nosniff",
        "cache-control": `public, max-age=${IMAGE_CACHE_SECONDS}, immutable`,
        etag: `"${name.slice(0, 64)}"`,
        "content-security-policy": "default-src 'none'; sandbox",
        "cross-origin-resource-policy": "cross-origin",
      },
      bytes,
    };
  } catch (error) {
    return errorResult(error, { "cache-control": "no-store" });
  }
}
