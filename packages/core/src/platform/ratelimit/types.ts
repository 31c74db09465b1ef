/** Outcome of one rate-limit check (what @upstash/ratelimit reports). */
export interface RateLimitResult {
  success: boolean;
  /** Requests allowed per window. */
  limit: number;
  remaining: number;
  /** When the window frees up, in ms since the epoch. */
  reset: number;
}

/** What an identifier has left, read without counting a request. */
export interface RemainingBudget {
  remaining: number;
  /** When the current fixed window ends, in ms since the epoch. */
  reset: number;
}

/** A limit: `limit` requests per `windowSeconds`, under a name (the store's key prefix and the RateLimit-Policy header). */
export interface RateLimitPolicy {
  limit: number;
  windowSeconds: number;
  name: string;
}

export interface RateLimiter {
  /** Requests per window and the window length, for the RateLimit-Policy header. */
  readonly policy: RateLimitPolicy;
  limit(identifier: string): Promise<RateLimitResult>;
  /** What `identifier` has left in the shared store, without counting a request. */
  remaining(identifier: string): Promise<RemainingBudget>;
}

/**
 * Concurrent holders per identifier (widget connections per IP), in the shared store. A slot
 * expires unless its holder renews it, so the slots of a crashed instance free themselves.
 */
export interface SlotLimiter {
  /** Takes a slot for `holder` if fewer than `limit` live ones are held (a holder's own slot counts once); false when full. */
  acquire(identifier: string, holder: string, limit: number): Promise<boolean>;
  renew(identifier: string, holder: string): Promise<void>;
  release(identifier: string, holder: string): Promise<void>;
}

/** The limiters Parley uses, all on one backend (in process, Redis or Upstash). */
export interface RateLimiters {
  /** Send message: per agent. */
  messages: RateLimiter;
  /** Help routes: per client IP and agent. */
  help: RateLimiter;
  /** Failed bearer-key attempts: per client IP. */
  failedKeys: RateLimiter;
  /** Failed panel sign-ins: per email and IP. */
  signIn: RateLimiter;
  /**
   * A limiter for a policy whose limit is set per agent (the widget's): @upstash/ratelimit fixes a
   * limiter's limit when it is made, so there is one per distinct policy, made on first use and
   * kept. Counters live under the policy's name only, so a changed limit applies to the same counts.
   */
  configured(policy: RateLimitPolicy): RateLimiter;
  /** Concurrent widget connections per IP. */
  connections: SlotLimiter;
  /** Failed panel sign-ins: per IP, whatever the email. */
  signInIp: RateLimiter;
  /** Which backend these use, for logs and health. */
  backend: "memory" | "redis" | "upstash";
  close(): Promise<void>;
}
