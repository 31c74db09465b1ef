// What every core operation may need from the outside world, passed explicitly (no globals), so
// tests build one over a throwaway database and the app builds one from the environment. Modules
// above the platform extend it with what they add (conversations/context.ts, voice/context.ts);
// the app's whole context is ../app-context.ts.
import type { Database } from "@parley/db";
import type { Mailer } from "./mail.ts";
import type { RateLimiters } from "./ratelimit/types.ts";
import type { TrustProxy } from "./trust-proxy.ts";
import type { Resolver } from "./url-guard.ts";

export interface PlatformContext {
  db: Database;
  limiters: RateLimiters;
  /** Public base URL, without a trailing slash (links in rich content and help pages). */
  appUrl: string;
  /** Which proxies may name the client in X-Forwarded-For (TRUST_PROXY; see clientIp). */
  trustProxy: TrustProxy;
  now(): Date;
  /**
   * Webhook URL checks in the panel (allowLocal from WEBHOOKS_ALLOW_LOCAL). Absent: the guard on,
   * with the system's DNS resolver.
   */
  webhooks?: { allowLocal: boolean; resolve?: Resolver };
  /** Email out (SMTP_URL): invitations are sent by it. Absent: no email, links are copied by hand. */
  mailer?: Mailer;
  /** How long replies to an away visitor are gathered into one email (VISITOR_MAIL_DELAY_SECONDS). Absent: VISITOR_MAIL_BATCH_MS. */
  visitorMailDelayMs?: number;
}
