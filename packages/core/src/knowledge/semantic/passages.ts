// An article's passages as the embeddings model reads them: one per section of sectionsOf(content)
// (the numbering the knowledge agent quotes from), each with the article's title and the section's
// heading in front, and a hash of exactly that text so an unchanged passage is not embedded again.
import { createHash } from "node:crypto";
import { sectionsOf } from "../articles/sections.ts";
import { EMBEDDINGS_PASSAGE_MAX_CHARS } from "../limits.ts";

export interface PassageText {
  /** Index in sectionsOf(content). */
  section: number;
  text: string;
  /** SHA-256 (hex) of `text`. */
  hash: string;
}

export function passagesOf(article: { title: string; content: string }): PassageText[] {
  return sectionsOf(article.content).map((section, index) => {
    const text = [article.title.trim(), section.heading.trim(), section.sentences.join(" ")]
      .filter(Boolean)
      .join("\n")
      .slice(0, EMBEDDINGS_PASSAGE_MAX_CHARS);
    return { section: index, text, hash: createHash("sha256").update(text).digest("hex") };
  });
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A vector as stored: little-endian float32 bytes. */
export function vectorToBytes(vector: Float32Array): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i]!, true);
  return bytes;
}

export function vectorFromBytes(bytes: Uint8Array): Float32Array {
  // Little-endian machines (all Node runs on, in practice): one copy into an aligned buffer.
  if (LITTLE_ENDIAN) return new Float32Array(new Uint8Array(bytes).buffer, 0, Math.floor(bytes.byteLength / 4));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector = new Float32Array(Math.floor(bytes.byteLength / 4));
  for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
  return vector;
}
