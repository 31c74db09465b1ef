// An exact nearest-neighbour index of unit-length vectors in one contiguous Float32Array: cosine
// similarity is then a dot product, and a scan touches memory in order. Exact search over the
// agent's own passages is fast enough at the sizes we serve (see docs/operators/semantic-retrieval.md), so there is
// no approximate graph to build, tune or keep in sync.

export interface PassageKey {
  articleId: string;
  section: number;
}

export interface PassageEntry extends PassageKey {
  sourceId: string;
}

export interface Neighbour extends PassageKey {
  /** Cosine similarity, -1..1. */
  score: number;
}

/** A vector scaled to unit length (a zero vector stays zero and matches nothing). */
export function unitVector(values: ArrayLike<number>): Float32Array {
  const vector = Float32Array.from(values);
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

function keyOf(articleId: string, section: number): string {
  return `${articleId}\u0000${section}`;
}

/** The dot product of `query` with the vector at `offset` of `vectors`, four lanes at a time. */
function dotAt(vectors: Float32Array, offset: number, query: Float32Array): number {
  const dims = query.length;
  const tail = dims - (dims % 4);
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  for (let i = 0; i < tail; i += 4) {
    a += vectors[offset + i]! * query[i]!;
    b += vectors[offset + i + 1]! * query[i + 1]!;
    c += vectors[offset + i + 2]! * query[i + 2]!;
    d += vectors[offset + i + 3]! * query[i + 3]!;
  }
  for (let i = tail; i < dims; i++) a += vectors[offset + i]! * query[i]!;
  return a + b + c + d;
}

export class VectorIndex {
  private vectors = new Float32Array(0);
  private entries: Array<PassageEntry | undefined> = [];
  private readonly slots = new Map<string, number>();
  private readonly free: number[] = [];
  private dims = 0;

  get size(): number {
    return this.slots.size;
  }

  get dimensions(): number {
    return this.dims;
  }

  has(articleId: string, section: number): boolean {
    return this.slots.has(keyOf(articleId, section));
  }

  /** Every stored key (to drop the ones the database no longer has). */
  keys(): PassageKey[] {
    return this.entries
      .filter((entry): entry is PassageEntry => entry !== undefined)
      .map(({ articleId, section }) => ({ articleId, section }));
  }

  /** Adds or replaces a passage. The vector must be unit length; all vectors have one dimension count. */
  upsert(entry: PassageEntry, vector: Float32Array): void {
    if (this.dims === 0) this.dims = vector.length;
    if (vector.length !== this.dims) throw new Error(`VectorIndex: a vector of ${vector.length} dimensions in an index of ${this.dims}`);
    const key = keyOf(entry.articleId, entry.section);
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = this.free.pop() ?? this.entries.length;
      this.slots.set(key, slot);
    }
    this.ensureCapacity(slot + 1);
    this.entries[slot] = { articleId: entry.articleId, section: entry.section, sourceId: entry.sourceId };
    this.vectors.set(vector, slot * this.dims);
  }

  remove(articleId: string, section: number): void {
    const key = keyOf(articleId, section);
    const slot = this.slots.get(key);
    if (slot === undefined) return;
    this.slots.delete(key);
    this.entries[slot] = undefined;
    this.free.push(slot);
  }

  clear(): void {
    this.vectors = new Float32Array(0);
    this.entries = [];
    this.slots.clear();
    this.free.length = 0;
    this.dims = 0;
  }

  /**
   * The `k` passages most similar to `query` (unit length) among those whose source passes
   * `sources`, best first.
   */
  search(query: Float32Array, k: number, sources: ReadonlySet<string>): Neighbour[] {
    if (k <= 0 || this.size === 0 || query.length !== this.dims) return [];
    const dims = this.dims;
    const vectors = this.vectors;
    // The best k so far, worst last (k is small: an insertion keeps them sorted).
    const bestSlots: number[] = [];
    const bestScores: number[] = [];
    for (let slot = 0; slot < this.entries.length; slot++) {
      const entry = this.entries[slot];
      if (entry === undefined || !sources.has(entry.sourceId)) continue;
      const score = dotAt(vectors, slot * dims, query);
      if (bestScores.length === k && score <= bestScores[k - 1]!) continue;
      let at = bestScores.length;
      while (at > 0 && bestScores[at - 1]! < score) at--;
      bestScores.splice(at, 0, score);
      bestSlots.splice(at, 0, slot);
      if (bestScores.length > k) {
        bestScores.pop();
        bestSlots.pop();
      }
    }
    return bestSlots.map((slot, rank) => {
      const entry = this.entries[slot]!;
      return { articleId: entry.articleId, section: entry.section, score: bestScores[rank]! };
    });
  }

  private ensureCapacity(slots: number): void {
    if (this.vectors.length >= slots * this.dims) return;
    const grown = new Float32Array(Math.max(slots, Math.ceil((this.vectors.length / Math.max(1, this.dims)) * 1.5), 64) * this.dims);
    grown.set(this.vectors);
    this.vectors = grown;
  }
}
