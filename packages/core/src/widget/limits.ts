// The widget's own limits, counted in the shared rate-limit store (Redis when configured) so that
// every instance sees the same counts: concurrent connections per client IP, messages per
// connection and per IP a minute, new conversations per IP an hour. All are per agent: the agent's
// setting, or the default of agents/limits.ts. The HTTP API's limit of 30 a minute per agent is the HTTP
// API's alone (spec 8); widget turns never spend it.

import { WIDGET_LIMIT_SETTINGS } from "../agents/limits.ts";
import { effectiveVoiceLimit, type VoiceLimitSettings } from "../agents/voice-settings.ts";
import { limitAddress } from "../platform/client-ip.ts";
import { AppError, isAppError } from "../platform/errors.ts";
import { enforceRateLimit } from "../platform/ratelimit/index.ts";
import type { RateLimiters } from "../platform/ratelimit/types.ts";

/** The agent's widget settings (columns of Agent); null means the default. */
export type WidgetLimitSettings = Record<keyof typeof WIDGET_LIMIT_SETTINGS, number | null>;

export function effectiveWidgetLimit(settings: WidgetLimitSettings, name: keyof WidgetLimitSettings): number {
  return settings[name] ?? WIDGET_LIMIT_SETTINGS[name].default;
}

/** Who is sending: the agent, this connection and the client's IP. */
export interface WidgetClient {
  agentId: string;
  connectionId: string;
  clientIp: string;
}

/**
 * Takes one of the IP's connection slots for this connection; false when the IP holds as many as
 * the agent allows (the connection is then closed with 4429).
 */
export function acquireConnectionSlot(limiters: RateLimiters, settings: WidgetLimitSettings, client: WidgetClient): Promise<boolean> {
  return limiters.connections.acquire(addressKey(client), client.connectionId, effectiveWidgetLimit(settings, "widgetConnectionsPerIp"));
}

export function renewConnectionSlot(limiters: RateLimiters, client: WidgetClient): Promise<void> {
  return limiters.connections.renew(addressKey(client), client.connectionId);
}

export function releaseConnectionSlot(limiters: RateLimiters, client: WidgetClient): Promise<void> {
  return limiters.connections.release(addressKey(client), client.connectionId);
}

/** A voice session's slot among the IP's voice sessions for the agent (voiceSessionsPerIp). */
export function acquireVoiceSlot(limiters: RateLimiters, settings: VoiceLimitSettings, client: WidgetClient): Promise<boolean> {
  return limiters.connections.acquire(voiceSlotKey(client), client.connectionId, effectiveVoiceLimit(settings, "voiceSessionsPerIp"));
}

export function renewVoiceSlot(limiters: RateLimiters, client: WidgetClient): Promise<void> {
  return limiters.connections.renew(voiceSlotKey(client), client.connectionId);
}

export function releaseVoiceSlot(limiters: RateLimiters, client: WidgetClient): Promise<void> {
  return limiters.connections.release(voiceSlotKey(client), client.connectionId);
}

/** The key of the client's address for the agent: every widget limit per address counts by it (an IPv6 client by its /64). */
function addressKey(client: WidgetClient): string {
  return `${client.agentId}:${limitAddress(client.clientIp)}`;
}

function voiceSlotKey(client: WidgetClient): string {
  return `voice:${addressKey(client)}`;
}

/**
 * Counts one message against the connection's and the IP's minute, and a new conversation against
 * the IP's hour; throws RATE_LIMITED with Retry-After and a `details` naming the limit reached.
 * The narrower limits are counted first, so a message refused by one is not counted by the next.
 */
export async function enforceWidgetMessageLimits(
  limiters: RateLimiters,
  settings: WidgetLimitSettings,
  client: WidgetClient,
  startsConversation: boolean,
): Promise<void> {
  const checks = [
    {
      policy: {
        name: "widget-messages-connection",
        limit: effectiveWidgetLimit(settings, "widgetMessagesPerConnectionPerMinute"),
        windowSeconds: 60,
      },
      identifier: `${client.agentId}:${client.connectionId}`,
      details: "Too many messages on this connection",
    },
    {
      policy: { name: "widget-messages-ip", limit: effectiveWidgetLimit(settings, "widgetMessagesPerIpPerMinute"), windowSeconds: 60 },
      identifier: addressKey(client),
      details: "Too many messages from this address",
    },
  ];
  if (startsConversation) {
    checks.push({
      policy: {
        name: "widget-conversations-ip",
        limit: effectiveWidgetLimit(settings, "widgetConversationsPerIpPerHour"),
        windowSeconds: 3_600,
      },
      identifier: addressKey(client),
      details: "Too many new conversations from this address",
    });
  }
  for (const check of checks) {
    try {
      await enforceRateLimit(limiters.configured(check.policy), check.identifier);
    } catch (error) {
      if (isAppError(error) && error.code === "RATE_LIMITED")
        throw new AppError("RATE_LIMITED", { details: check.details, headers: error.headers });
      throw error;
    }
  }
}
