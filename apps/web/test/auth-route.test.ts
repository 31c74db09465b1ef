// next-auth's route file (app/api/auth/[...nextauth]/route.ts) as Next calls it: what it is sent
// before next-auth reads anything. next-auth parses a JSON body first and answers a 500 when it is
// not JSON; the route answers the API's 400 instead. No database: these requests never reach it.
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { POST } from "../app/api/auth/[...nextauth]/route.ts";

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
