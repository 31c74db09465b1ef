// Images uploaded from the panel (article pictures, agents' logos): the upload and serve
// operations, their storage (the database, or an S3-compatible bucket), type sniffing and limits.

export { type ImageBucket, type S3BucketConfig, s3ImageBucket } from "./bucket.ts";
export { IMAGES_ERRORS } from "./errors.ts";
export {
  type ImagesContext,
  serveImage,
  UPLOAD_IMAGE_OPERATION,
  type UploadedImage,
  uploadImage,
  uploadImageResult,
} from "./images.ts";
export { IMAGE_CACHE_SECONDS, IMAGE_READS_PER_IP_PER_MINUTE, IMAGE_UPLOAD_MAX_BYTES, IMAGE_UPLOADS_PER_HOUR } from "./limits.ts";
export { IMAGE_NAME, IMAGE_PATH_PREFIX, imagePath, isUploadedImagePath } from "./paths.ts";
export { checkImagesSettings, type ImagesSettings, imageBucketConfigFrom, imagesSettingsSchema } from "./settings.ts";
export { ACCEPTED_IMAGE_TYPES_TEXT, type ImageType, sniffImageType } from "./sniff.ts";
