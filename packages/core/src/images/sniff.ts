// What an upload is, read from its first bytes (never from its file name or the type the browser
// declares): PNG, JPEG, GIF or WebP. SVG is refused: it is a document that may carry script, and
// no sanitiser is run over it here.

export interface ImageType {
  contentType: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
  extension: "png" | "jpg" | "gif" | "webp";
}

const ascii = (bytes: Uint8Array, start: number, text: string) =>
  bytes.length >= start + text.length && [...text].every((char, index) => bytes[start + index] === char.charCodeAt(0));

/** The image type of `bytes` by its signature, or null for anything else (SVG, HTML, a PDF...). */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, index) => bytes[index] === byte))
    return { contentType: "image/png", extension: "png" };
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return { contentType: "image/jpeg", extension: "jpg" };
  if (ascii(bytes, 0, "GIF87a") || ascii(bytes, 0, "GIF89a")) return { contentType: "image/gif", extension: "gif" };
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WEBP")) return { contentType: "image/webp", extension: "webp" };
  return null;
}

/** The types accepted, as an error or a hint names them. */
export const ACCEPTED_IMAGE_TYPES_TEXT = "PNG, JPEG, GIF or WebP";
