// The send-message body reader of the HTTP transport (src/server/http/json-body.ts): JSON content
// type, 64 KiB before parsing, UTF-8, text the database can store. No database.
import { AppError } from "@parley/core";
import { MESSAGE_BODY_MAX_BYTES } from "@parley/core/conversations/limits";
import { describe, expect, it } from "vitest";
import { readJsonBody } from "~/server/http/json-body.ts";

function raw(text: string, contentType: string | null = "application/json", contentLength: string | null = null) {
  return { contentType, contentLength, body: new Response(text).body as AsyncIterable<Uint8Array> | null };
}

async function readError(input: Parameters<typeof readJsonBody>[0]): Promise<string> {
  const error = await readJsonBody(input).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).details ?? "";
}

describe("readJsonBody", () => {
  it("needs application/json (parameters allowed, any case)", async () => {
    await expect(readJsonBody(raw('{"message":"hi"}', "application/json; charset=utf-8"))).resolves.toEqual({ message: "hi" });
    await expect(readJsonBody(raw('{"message":"hi"}', "Application/JSON"))).resolves.toEqual({ message: "hi" });
    expect(await readError(raw('{"message":"hi"}', "text/plain"))).toBe("Content-Type: must be application/json");
    expect(await readError(raw('{"message":"hi"}', null))).toBe("Content-Type: must be application/json");
    expect(await readError(raw('{"message":"hi"}', "application/x-www-form-urlencoded"))).toBe("Content-Type: must be application/json");
  });

  it("rejects what is not JSON", async () => {
    expect(await readError(raw("{message: hi}"))).toBe("body: must be valid JSON");
    expect(await readError(raw(""))).toBe("body: must be a JSON object");
    expect(await readError({ contentType: "application/json", contentLength: null, body: null })).toBe("body: must be a JSON object");
    const invalidUtf8 = new Response(new Uint8Array([0x7b, 0xff, 0x7d])).body as AsyncIterable<Uint8Array> | null;
    expect(await readError({ contentType: "application/json", contentLength: null, body: invalidUtf8 })).toBe(
      "body: must be UTF-8 encoded JSON",
    );
  });

  it("accepts exactly 64 KiB and rejects one byte more with 400, before parsing", async () => {
    const exact = `{"message":"hi"}${" ".repeat(MESSAGE_BODY_MAX_BYTES - 16)}`;
    expect(Buffer.byteLength(exact)).toBe(MESSAGE_BODY_MAX_BYTES);
    await expect(readJsonBody(raw(exact))).resolves.toEqual({ message: "hi" });
    // One byte over: rejected for its size although it would parse.
    expect(await readError(raw(`${exact} `))).toBe("body: must be at most 65536 bytes");
    await expect(readJsonBody(raw(`${exact} `))).rejects.toMatchObject({ code: "INVALID_REQUEST", status: 400 });
    // Multi-byte characters count as bytes.
    expect(await readError(raw(JSON.stringify({ message: "é".repeat(MESSAGE_BODY_MAX_BYTES / 2) })))).toBe(
      "body: must be at most 65536 bytes",
    );
  });

  it("rejects text PostgreSQL cannot store (NUL, lone surrogates) and names where it is", async () => {
    expect(await readError(raw('{"message":"a\\u0000b"}'))).toBe("message: must be valid Unicode text without NUL characters");
    expect(await readError(raw('{"message":"hi","visitor":{"name":"\\ud800"}}'))).toBe(
      "visitor.name: must be valid Unicode text without NUL characters",
    );
    expect(await readError(raw('{"message":"hi","clientVariables":{"\\u0000":"x"}}'))).toBe(
      "clientVariables (a key): must be valid Unicode text without NUL characters",
    );
    // A surrogate pair is a real character (an emoji), not a lone surrogate.
    await expect(readJsonBody(raw('{"message":"\\ud83d\\ude00"}'))).resolves.toEqual({ message: "\u{1F600}" });
  });

  it("trusts a declared Content-Length over the limit without reading", async () => {
    let pulled = false;
    const body = new ReadableStream<Uint8Array>(
      {
        pull() {
          pulled = true;
        },
      },
      { highWaterMark: 0 },
    );
    expect(
      await readError({
        contentType: "application/json",
        contentLength: String(MESSAGE_BODY_MAX_BYTES + 1),
        body: body as unknown as AsyncIterable<Uint8Array>,
      }),
    ).toBe("body: must be at most 65536 bytes");
    expect(pulled).toBe(false);
  });
});
