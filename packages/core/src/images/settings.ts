// The image bucket's settings (IMAGES_S3_*). Core reads no environment: the app parses these
// variables (apps/web/src/env.ts includes the schema) and hands the bucket to core. All unset (the
// default): images are stored in the database.
import { z } from "zod";
import type { S3BucketConfig } from "./bucket.ts";

const optionalSetting = z.preprocess((value) => (value === "" ? undefined : value), z.string().trim().min(1).max(1_024).optional());

export const imagesSettingsSchema = z.object({
  /** The S3-compatible service, e.g. https://s3.eu-west-1.amazonaws.com, https://<account>.r2.cloudflarestorage.com, http://minio:9000. */
  IMAGES_S3_ENDPOINT: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
  ),
  IMAGES_S3_BUCKET: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens")
      .optional(),
  ),
  /** The region requests are signed for; us-east-1 suits most S3-compatible services that have none. */
  IMAGES_S3_REGION: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z
      .string()
      .regex(/^[a-z0-9-]{2,32}$/, "must be a region name such as eu-west-1")
      .default("us-east-1"),
  ),
  IMAGES_S3_ACCESS_KEY_ID: optionalSetting,
  IMAGES_S3_SECRET_ACCESS_KEY: optionalSetting,
});

export type ImagesSettings = z.infer<typeof imagesSettingsSchema>;

const REQUIRED = ["IMAGES_S3_ENDPOINT", "IMAGES_S3_BUCKET", "IMAGES_S3_ACCESS_KEY_ID", "IMAGES_S3_SECRET_ACCESS_KEY"] as const;

/** A half-configured bucket is an error (images would land in the database unnoticed): the variables missing beside those set. */
export function checkImagesSettings(settings: ImagesSettings, context: z.RefinementCtx): void {
  const set = REQUIRED.filter((name) => settings[name] !== undefined);
  if (set.length === 0 || set.length === REQUIRED.length) return;
  for (const name of REQUIRED.filter((required) => settings[required] === undefined))
    context.addIssue({ code: "custom", path: [name], message: `required with ${set.join(", ")} (an image bucket needs all four)` });
}

/** The bucket's configuration, or undefined (images in the database) when none is set. */
export function imageBucketConfigFrom(settings: ImagesSettings): S3BucketConfig | undefined {
  const { IMAGES_S3_ENDPOINT, IMAGES_S3_BUCKET, IMAGES_S3_ACCESS_KEY_ID, IMAGES_S3_SECRET_ACCESS_KEY } = settings;
  if (!IMAGES_S3_ENDPOINT || !IMAGES_S3_BUCKET || !IMAGES_S3_ACCESS_KEY_ID || !IMAGES_S3_SECRET_ACCESS_KEY) return undefined;
  return {
    endpoint: IMAGES_S3_ENDPOINT,
    bucket: IMAGES_S3_BUCKET,
    region: settings.IMAGES_S3_REGION,
    accessKeyId: IMAGES_S3_ACCESS_KEY_ID,
    secretAccessKey: IMAGES_S3_SECRET_ACCESS_KEY,
  };
}
