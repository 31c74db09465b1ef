/** A dynamic route segment as the id it names (tolerates segments Next already decoded). */
export function segmentId(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
