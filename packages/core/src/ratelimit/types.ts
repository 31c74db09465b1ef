/** Outcome of one rate-limit check (what @upstash/ratelimit reports). */
export interface RateLimitResult {
  success: boolean;
  /** Requests allowed per window. */
  limit: number;
  remaining: number;
  /** When the window frees up, in ms since the epoch. */
  reset: number;
}

export interface RateLimiter {
  /** Requests per window and the window length, for the RateLimit-Policy header. */
  readonly policy: { limit: number; windowSeconds: number; name: string };
  limit(identifier: string): Promise<RateLimitResult>;
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
  /** Failed panel sign-ins: per IP, whatever the email. */
  signInIp: RateLimiter;
  /** Which backend these use, for logs and health. */
  backend: "memory" | "redis" | "upstash";
  close(): Promise<void>;
}
