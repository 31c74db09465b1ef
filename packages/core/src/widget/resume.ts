// Resume tokens: let a visitor come back to their conversation after a reload or a reconnect.
// `<payload>.<signature>`, both base64url; the payload is {"a": agentId, "c": conversationId,
// "e": expiry (Unix seconds)}, the signature HMAC-SHA256 with a key derived from the app's secret.
// A token grants nothing but resuming that one conversation of that one agent (over the widget
// channel, from an allowed origin); it is not an API key and opens no other route.
import { createHmac, timingSafeEqual } from "node:crypto";
import { WIDGET_RESUME_TOKEN_TTL_SECONDS } from "./widget-limits.ts";

export interface ResumeClaims {
  agentId: string;
  conversationId: string;
}

export interface ResumeTokens {
  sign(claims: ResumeClaims, now?: Date): string;
  /** The claims of a valid, unexpired token, or null. */
  verify(token: string, now?: Date): ResumeClaims | null;
}

/** `secret`: the app's secret (NEXTAUTH_SECRET or the generated one); a purpose key is derived from it. */
export function createResumeTokens(secret: string, ttlSeconds = WIDGET_RESUME_TOKEN_TTL_SECONDS): ResumeTokens {
  if (secret.length < 32) throw new Error("The resume-token secret must be at least 32 characters");
  const key = createHmac("sha256", secret).update("parley.widget.resume-token.v1").digest();
  const mac = (payload: string) => createHmac("sha256", key).update(payload).digest();

  return {
    sign(claims, now = new Date()) {
      const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
      const payload = Buffer.from(JSON.stringify({ a: claims.agentId, c: claims.conversationId, e: expires })).toString("base64url");
      return `${payload}.${mac(payload).toString("base64url")}`;
    },
    verify(token, now = new Date()) {
      const [payload, signature, extra] = token.split(".");
      if (!payload || !signature || extra !== undefined) return null;
      const expected = mac(payload);
      const given = Buffer.from(signature, "base64url");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      let data: unknown;
      try {
        data = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      } catch {
        return null;
      }
      const { a, c, e } = (data ?? {}) as { a?: unknown; c?: unknown; e?: unknown };
      if (typeof a !== "string" || typeof c !== "string" || typeof e !== "number") return null;
      if (e * 1000 <= now.getTime()) return null;
      return { agentId: a, conversationId: c };
    },
  };
}
