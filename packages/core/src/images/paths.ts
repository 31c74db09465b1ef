// Where an uploaded image is served, and what such an address looks like. Pure, so the panel's
// browser code (the logo field) and the branding rules share it through @parley/core/browser.

/** The path every uploaded image is served under. */
export const IMAGE_PATH_PREFIX = "/api/images/";

/** An uploaded image's name: the SHA-256 of its bytes in hex, and its type's extension. */
export const IMAGE_NAME = /^[0-9a-f]{64}\.(?:png|jpg|gif|webp)$/;

/** The path of the image named `name` on this site. */
export function imagePath(name: string): string {
  return `${IMAGE_PATH_PREFIX}${name}`;
}

/** Whether `value` is the path of an uploaded image on this site (`/api/images/<sha256>.png`). */
export function isUploadedImagePath(value: string): boolean {
  return value.startsWith(IMAGE_PATH_PREFIX) && IMAGE_NAME.test(value.slice(IMAGE_PATH_PREFIX.length));
}
