// The in-process rate-limit store (the embedded default, one app instance): plain maps in this
// process, running the same algorithms as the shared stores. The sliding window is
// @upstash/ratelimit's (2.2, `Ratelimit.slidingWindow`: its Lua script and the code around it),
// step for step, so a request gets the same decision, limit, remaining and reset here as on Redis
// or Upstash; the connection slots are slots.ts's scripts. Keys expire as Redis would expire them,
// and a sweep drops expired keys, because a window's counter is never read again once its window
// has passed: without the sweep every identifier ever seen would stay in memory.
import type { RateLimitPolicy, RateLimitResult, RemainingBudget } from "./types.ts";

/** How often expired keys are dropped (the timer runs only while keys are held). */
const SWEEP_INTERVAL_MS = 60_000;

interface Counter {
  count: number;
  /** ms since the epoch; the key is gone once the clock is past it (as Redis' PEXPIRE). */
  expiresAt: number;
}

interface SlotSet {
  /** holder -> the time its slot expires (the sorted set's score). */
  holders: Map<string, number>;
  expiresAt: number;
}

export class MemoryRateLimitStore {
  private readonly counters = new Map<string, Counter>();
  private readonly slotSets = new Map<string, SlotSet>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly sweepIntervalMs = SWEEP_INTERVAL_MS) {}

  /**
   * Counts one request of `key` (the limiter's prefix and the identifier) in a sliding window of
   * `policy.limit` requests per `policy.windowSeconds`, as @upstash/ratelimit does: a counter per
   * fixed window, the previous window's count weighted by the share of it still inside the sliding
   * window (rounded down); a refused request is not counted; reset is the end of the fixed window.
   */
  slidingWindow(key: string, policy: Pick<RateLimitPolicy, "limit" | "windowSeconds">, now: number): RateLimitResult {
    const windowSize = policy.windowSeconds * 1000;
    const tokens = policy.limit;
    const currentWindow = Math.floor(now / windowSize);
    const currentKey = `${key}:${currentWindow}`;
    const previousKey = `${key}:${currentWindow - 1}`;
    const reset = (currentWindow + 1) * windowSize;

    const requestsInCurrentWindow = this.liveCounter(currentKey, now)?.count ?? 0;
    const percentageInCurrent = (now % windowSize) / windowSize;
    const requestsInPreviousWindow = Math.floor((1 - percentageInCurrent) * (this.liveCounter(previousKey, now)?.count ?? 0));
    if (requestsInPreviousWindow + requestsInCurrentWindow >= tokens) {
      return { success: false, limit: tokens, remaining: 0, reset };
    }
    const newValue = requestsInCurrentWindow + 1;
    if (newValue === 1) {
      // Long enough to be the previous window of the next one, plus a second (the script's PEXPIRE).
      this.counters.set(currentKey, { count: newValue, expiresAt: now + windowSize * 2 + 1000 });
      this.startSweeping();
    } else {
      this.counters.get(currentKey)!.count = newValue;
    }
    return { success: true, limit: tokens, remaining: Math.max(0, tokens - (newValue + requestsInPreviousWindow)), reset };
  }

  /**
   * What `key` has left in the sliding window without counting a request, as
   * @upstash/ratelimit's getRemaining computes it (its remaining-tokens script).
   */
  slidingWindowRemaining(key: string, policy: Pick<RateLimitPolicy, "limit" | "windowSeconds">, now: number): RemainingBudget {
    const windowSize = policy.windowSeconds * 1000;
    const currentWindow = Math.floor(now / windowSize);
    const requestsInCurrentWindow = this.liveCounter(`${key}:${currentWindow}`, now)?.count ?? 0;
    const percentageInCurrent = (now % windowSize) / windowSize;
    const requestsInPreviousWindow = Math.floor(
      (1 - percentageInCurrent) * (this.liveCounter(`${key}:${currentWindow - 1}`, now)?.count ?? 0),
    );
    return {
      remaining: Math.max(0, policy.limit - (requestsInPreviousWindow + requestsInCurrentWindow)),
      reset: (currentWindow + 1) * windowSize,
    };
  }

  /** slots.ts's ACQUIRE: a slot for `holder` unless `limit` live ones are held by others. */
  acquireSlot(key: string, holder: string, limit: number, ttlMs: number, now: number): boolean {
    const set = this.liveSlotSet(key, now);
    const held = set?.holders ?? new Map<string, number>();
    if (!held.has(holder) && held.size >= limit) return false;
    held.set(holder, now + ttlMs);
    this.keepSlotSet(key, held, now + ttlMs);
    return true;
  }

  /** slots.ts's RENEW: extends a slot that is still held; an expired one stays gone. */
  renewSlot(key: string, holder: string, ttlMs: number, now: number): void {
    const set = this.liveSlotSet(key, now);
    if (!set?.holders.has(holder)) return;
    set.holders.set(holder, now + ttlMs);
    set.expiresAt = now + ttlMs;
  }

  /** slots.ts's RELEASE. */
  releaseSlot(key: string, holder: string): void {
    const set = this.slotSets.get(key);
    if (!set) return;
    set.holders.delete(holder);
    // Redis deletes a sorted set with its last member.
    if (set.holders.size === 0) this.slotSets.delete(key);
  }

  /** Drops every expired key now (the timer does it once a minute). */
  sweep(now = Date.now()): void {
    for (const [key, counter] of this.counters) if (now > counter.expiresAt) this.counters.delete(key);
    for (const [key, set] of this.slotSets) if (now > set.expiresAt) this.slotSets.delete(key);
    if (this.keyCount() === 0) this.stopSweeping();
  }

  /** Keys held, expired ones not yet swept included (for tests). */
  keyCount(): number {
    return this.counters.size + this.slotSets.size;
  }

  /** Forgets everything and stops the timer. */
  clear(): void {
    this.counters.clear();
    this.slotSets.clear();
    this.stopSweeping();
  }

  private liveCounter(key: string, now: number): Counter | undefined {
    const counter = this.counters.get(key);
    if (counter && now > counter.expiresAt) {
      this.counters.delete(key);
      return undefined;
    }
    return counter;
  }

  /** The key's set after dropping the members whose slots have expired (ZREMRANGEBYSCORE -inf now). */
  private liveSlotSet(key: string, now: number): SlotSet | undefined {
    const set = this.slotSets.get(key);
    if (!set) return undefined;
    if (now > set.expiresAt) {
      this.slotSets.delete(key);
      return undefined;
    }
    for (const [holder, expiresAt] of set.holders) if (expiresAt <= now) set.holders.delete(holder);
    if (set.holders.size === 0) {
      this.slotSets.delete(key);
      return undefined;
    }
    return set;
  }

  private keepSlotSet(key: string, holders: Map<string, number>, expiresAt: number): void {
    this.slotSets.set(key, { holders, expiresAt });
    this.startSweeping();
  }

  private startSweeping(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), this.sweepIntervalMs);
    // Never keeps the process alive.
    this.sweeper.unref?.();
  }

  private stopSweeping(): void {
    if (!this.sweeper) return;
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
