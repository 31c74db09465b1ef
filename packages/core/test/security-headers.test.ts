// The pages' Content-Security-Policy as proxy.ts builds it (the browser tests check it is sent and
// enforced on every page): the nonce, the app's WebSocket for its scheme, eval only under next dev.
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, SECURITY_HEADERS } from "../src/platform/security-headers.ts";

describe("contentSecurityPolicy", () => {
  it("allows scripts from this origin or with the response's nonce, and the app's own WebSocket", () => {
    expect(contentSecurityPolicy({ nonce: "bm9uY2U=", appUrl: "https://parley.example.com", development: false })).toBe(
      "default-src 'self'; script-src 'self' 'nonce-bm9uY2U='; style-src 'self' 'nonce-bm9uY2U='; style-src-attr 'unsafe-inline'; " +
        "img-src 'self' data: https:; font-src 'self'; connect-src 'self' wss://parley.example.com; object-src 'none'; " +
        "base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
    );
  });

  it("uses ws: for an http app URL (with its port) and allows eval only in development", () => {
    const policy = contentSecurityPolicy({ nonce: "n", appUrl: "http://localhost:3000", development: true });
    expect(policy).toContain("connect-src 'self' ws://localhost:3000;");
    expect(policy).toContain("script-src 'self' 'nonce-n' 'unsafe-eval';");
  });
});

describe("SECURITY_HEADERS", () => {
  it("are nosniff and a referrer policy that sends other sites the origin only", () => {
    expect(SECURITY_HEADERS).toEqual({ "x-content-type-options": "nosniff", "referrer-policy": "strict-origin-when-cross-origin" });
  });
});
