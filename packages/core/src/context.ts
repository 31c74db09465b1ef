// Everything a core operation needs from the outside world, passed explicitly (no globals), so
// tests build one over a throwaway database and the app builds one from the environment.
import type { Database } from "@parley/db";
import type { Engine, EngineAgent } from "./engine/types.ts";
import type { Mailer } from "./mail.ts";
import type { RateLimiters } from "./ratelimit/types.ts";
import type { TrustProxy } from "./trust-proxy.ts";
import type { SpeechEngines } from "./voice/speech.ts";
import type { Resolver } from "./webhooks/url-guard.ts";
import type { LiveBus } from "./widget/live.ts";

export interface AppContext {
  db: Database;
  limiters: RateLimiters;
  /** The engine that answers for this agent. */
  engineFor(agent: EngineAgent): Engine;
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
  /** Live events to connected widget visitors (admin replies, status changes). Absent: none. */
  live?: LiveBus;
  /** Email out (SMTP_URL): invitations are sent by it. Absent: no email, links are copied by hand. */
  mailer?: Mailer;
  /** Speech engines for voice over the widget socket. Absent: no voice on this instance. */
  speech?: SpeechEngines;
}
