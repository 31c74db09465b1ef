// next-auth's route file (app/api/auth/[...nextauth]/route.ts) as Next calls it: what it is sent
// before next-auth reads anything (next-auth parses a JSON body first and answers a 500 when it is
// not JSON; the route answers the API's 400 instead), the methods it does not serve, and next-auth's
// own error answers (plain text, HTML, its own JSON) turned into the API's error body. next-auth
// reads its cookies through next/headers, which only a running Next server has: here a stand-in
// answers what next-auth answered a production build. No database.
import { randomBytes } from "node:crypto";
import { type AppError, isAppError } from "@parley/core";
import { FAILED_SIGN_INS_PER_IP_PER_WINDOW } from "@parley/core/limits";
import { signInAdmin } from "@parley/core/people";
import { createRateLimiters } from "@parley/core/ratelimit";
import type { Database } from "@parley/db";
import { freezeClockAtWindowStart } from "@parley/testing/clock";
import { NextRequest } from "next/server";
import { describe, expect, it, vi } from "vitest";
import { signInRefusals } from "~/server/auth.ts";
import { nextAuthRoute } from "~/server/auth-request.ts";
import { DELETE, PATCH, POST, PUT } from "../app/api/auth/[...nextauth]/route.ts";

const context = { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) };

function signIn(body: string, contentType: string): NextRequest {
  return new NextRequest("http://localhost/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": contentType },
    body,
  });
}

describe("POST /api/auth/callback/credentials", () => {
  it("answers a JSON body that does not parse with 400 and the API's error body", async () => {
    for (const contentType of ["application/json", "application/json; charset=utf-8", "text/plain, application/json"]) {
      for (const body of ["{bad", "", '{"email":', "\u0000"]) {
        const response = await POST(signIn(body, contentType), context);
        expect(response.status, `${contentType} ${JSON.stringify(body)}`).toBe(400);
        expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
        expect(response.headers.get("x-request-id")).toBeTruthy();
        expect(await response.json()).toEqual({ error: "Invalid request", details: "body: must be valid JSON" });
      }
    }
  });
});

describe("methods next-auth's routes do not serve", () => {
  it("answers PUT, PATCH and DELETE 405 with Allow and the API's error body (Next's own 405 has no body)", async () => {
    for (const [method, route] of [
      ["PUT", PUT],
      ["PATCH", PATCH],
      ["DELETE", DELETE],
    ] as const) {
      const response = route(new NextRequest("http://localhost/api/auth/session", { method }));
      expect(response.status, method).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, POST");
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await response.json()).toEqual({ error: "Method not allowed" });
    }
  });
});

// next-auth's own answers, as a production build gave them to curl (status, headers, body).
const CSRF_COOKIE = "next-auth.csrf-token=abc%7Cdef; Path=/; HttpOnly; SameSite=Lax";
const nextAuthAnswers = {
  unknownAction: () =>
    new Response("Error: This action with HTTP GET is not supported by NextAuth.js", {
      status: 400,
      headers: { "content-type": "text/plain;charset=UTF-8" },
    }),
  sessionUpdateWithoutCsrf: () =>
    new Response("[object Object]", { status: 400, headers: { "content-type": "text/plain;charset=UTF-8", "set-cookie": CSRF_COOKIE } }),
  credentialsCallbackByGet: () =>
    new Response("Error: Callback for provider type credentials not supported", {
      status: 500,
      headers: { "content-type": "text/plain;charset=UTF-8" },
    }),
  errorPage: (status: number) =>
    new Response("<!DOCTYPE html><html><body><h1>Access Denied</h1></body></html>", { status, headers: { "content-type": "text/html" } }),
  configuration: () =>
    new Response(
      JSON.stringify({ message: "There is a problem with the server configuration. Check the server logs for more information." }),
      {
        status: 500,
        headers: { "content-type": "application/json" },
      },
    ),
  wrongPassword: () =>
    new Response(JSON.stringify({ url: "http://localhost:3000/api/auth/error?error=CredentialsSignin&provider=credentials" }), {
      status: 401,
      headers: { "content-type": "application/json", "set-cookie": CSRF_COOKIE },
    }),
};

/** Core's refusal of a sign-in from an address whose failed-attempt budget is used up (1 s into its window). */
async function throttledSignIn(): Promise<AppError> {
  freezeClockAtWindowStart(15 * 60);
  const limiters = createRateLimiters({ prefix: `auth-route-${randomBytes(6).toString("hex")}` });
  try {
    for (let attempt = 0; attempt < FAILED_SIGN_INS_PER_IP_PER_WINDOW; attempt++) await limiters.signInIp.limit("198.51.100.1");
    // Refused before the database is asked.
    const refused = await signInAdmin({ db: {} as Database, limiters }, { email: "a@example.com", password: "x" }, "198.51.100.1").catch(
      (error: unknown) => error,
    );
    if (!isAppError(refused)) throw new Error("the sign-in was not refused");
    return refused;
  } finally {
    vi.useRealTimers();
    await limiters.close();
  }
}

/** The route over a stand-in for next-auth that answers `answer` (and may refuse the sign-in as authorize does). */
function routeAnswering(answer: () => Response, refusal?: AppError) {
  return nextAuthRoute(async () => {
    const store = signInRefusals.getStore();
    if (store && refusal) store.refusal = refusal;
    return answer();
  });
}

const request = (path: string, method = "GET") => new NextRequest(`http://localhost${path}`, { method });
const authContext = (...nextauth: string[]) => ({ params: Promise.resolve({ nextauth }) });

describe("next-auth's error answers through the route", () => {
  it("answers next-auth's plain-text 400s (unknown action or provider, no CSRF token) in the API's error body, cookies kept", async () => {
    const unknown = await routeAnswering(nextAuthAnswers.unknownAction)(request("/api/auth/nope"), authContext("nope"));
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(unknown.headers.get("x-request-id")).toBeTruthy();
    expect(await unknown.json()).toEqual({
      error: "Invalid request",
      details: "not a sign-in action of /api/auth/ by this method, or no valid csrfToken",
    });

    const session = await routeAnswering(nextAuthAnswers.sessionUpdateWithoutCsrf)(
      request("/api/auth/session", "POST"),
      authContext("session"),
    );
    expect(session.status).toBe(400);
    expect(session.headers.get("set-cookie")).toBe(CSRF_COOKIE);
    expect((await session.json()).error).toBe("Invalid request");
  });

  it("answers next-auth's 500s (text or its own JSON) and its HTML error pages with their status and the API's body", async () => {
    const cases = [
      { answer: nextAuthAnswers.credentialsCallbackByGet, status: 500, body: { error: "Internal error" } },
      { answer: nextAuthAnswers.configuration, status: 500, body: { error: "Internal error" } },
      { answer: () => nextAuthAnswers.errorPage(403), status: 403, body: { error: "Forbidden" } },
      { answer: () => nextAuthAnswers.errorPage(500), status: 500, body: { error: "Internal error" } },
    ];
    for (const { answer, status, body } of cases) {
      const response = await routeAnswering(answer)(request("/api/auth/error?error=AccessDenied"), authContext("error"));
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await response.json()).toEqual(body);
    }
  });

  it("keeps the url of next-auth's answer to a refused sign-in (its client reads it) and adds the error", async () => {
    const signInPost = () => request("/api/auth/callback/credentials", "POST");
    const wrong = await routeAnswering(nextAuthAnswers.wrongPassword)(signInPost(), authContext("callback", "credentials"));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("set-cookie")).toBe(CSRF_COOKIE);
    expect(await wrong.json()).toEqual({
      error: "Unauthorized",
      url: "http://localhost:3000/api/auth/error?error=CredentialsSignin&provider=credentials",
    });

    const refusal = await throttledSignIn();
    const throttled = await routeAnswering(nextAuthAnswers.wrongPassword, refusal)(signInPost(), authContext("callback", "credentials"));
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get("retry-after")).toBe("900");
    expect(await throttled.json()).toEqual({
      error: "Too many failed sign-ins. Try again later.",
      url: "http://localhost:3000/api/auth/error?error=CredentialsSignin&provider=credentials",
    });
  });

  it("leaves sign-ins, redirects, next-auth's pages and a HEAD's empty body as they are", async () => {
    const passing = [
      () => new Response(JSON.stringify({ url: "http://localhost:3000/panel" }), { status: 200, headers: { "set-cookie": CSRF_COOKIE } }),
      () => new Response(null, { status: 302, headers: { location: "http://localhost:3000/signin?csrf=true", "set-cookie": CSRF_COOKIE } }),
      () => new Response("<!DOCTYPE html><html><body>Sign out</body></html>", { status: 200, headers: { "content-type": "text/html" } }),
    ];
    for (const answer of passing) {
      const expected = answer();
      const response = await routeAnswering(answer)(request("/api/auth/signout"), authContext("signout"));
      expect(response.status).toBe(expected.status);
      expect([...response.headers]).toEqual([...expected.headers]);
      expect(await response.text()).toBe(await expected.text());
    }
    const head = await routeAnswering(nextAuthAnswers.unknownAction)(request("/api/auth/session", "HEAD"), authContext("session"));
    expect(head.status).toBe(400);
    expect(head.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await head.text()).toBe("");
  });
});
