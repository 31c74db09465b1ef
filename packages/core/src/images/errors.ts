// The errors images/ throws: their responses and documentation (error-table.ts assembles the public table).
import { defineErrors } from "../platform/errors.ts";
import { IMAGE_UPLOAD_MAX_BYTES } from "./limits.ts";
import { ACCEPTED_IMAGE_TYPES_TEXT } from "./sniff.ts";

export const IMAGES_ERRORS = defineErrors({
  IMAGE_TYPE_NOT_ACCEPTED: {
    status: 415,
    message: `Upload a ${ACCEPTED_IMAGE_TYPES_TEXT} image`,
    trpc: "BAD_REQUEST",
    meaning: `The upload is not a ${ACCEPTED_IMAGE_TYPES_TEXT} image, as read from its bytes (SVG is refused: it may carry script). At most ${IMAGE_UPLOAD_MAX_BYTES / 1024 / 1024} MB.`,
    action: `Export the picture as PNG, JPEG, GIF or WebP and upload that.`,
  },
});
