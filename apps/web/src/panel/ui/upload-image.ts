// Uploading an image from the panel (POST /api/panel/images): the article editor's pictures and an
// agent's logo. The server checks the type, size and permission; a refusal comes back as its
// spec error body and is thrown as one readable message.
import type { UploadedImage } from "@parley/core/browser";

/** The images the file choosers offer (the server reads the bytes, whatever the chooser allowed). */
export const IMAGE_ACCEPT = "image/png,image/jpeg,image/gif,image/webp";

export async function uploadImage(file: Blob): Promise<UploadedImage> {
  const response = await fetch("/api/panel/images", {
    method: "POST",
    body: file,
    headers: { "content-type": "application/octet-stream" },
  });
  const json = (await response.json().catch(() => null)) as { data?: UploadedImage; error?: string; details?: string } | null;
  if (!response.ok || !json?.data) {
    const details = json?.details?.replace(/^file: /, "");
    throw new Error([json?.error ?? `The upload failed (${response.status})`, details].filter(Boolean).join(": "));
  }
  return json.data;
}
