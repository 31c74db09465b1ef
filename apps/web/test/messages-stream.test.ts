// The streaming form of POST /api/agent/{agentId}/messages (`Accept: text/event-stream`) over real
// HTTP, with the LLM agent against the fake OpenAI-compatible server streaming its answer: the
// events as they arrive, the same stored turn, usage and idempotency as the JSON form, errors
// before and after the stream began, the typed client's stream, and the production writer.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { InternalServerError, Parley, ParleyError } from "@parley/client";
import type { HttpResult } from "@parley/core";
import type { TestContext } from "@parley/testing/context";
import { brokenStream, errorResponse, type FakeOpenAi, startFakeOpenAi, streamedText } from "@parley/testing/fake-openai";
import { createAgentWithKey, createMessagingContext, type TestAgent } from "@parley/testing/messaging";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { writeResult } from "~/server/http/write.ts";
import { type AppServer, startAppServer } from "./support/app-server.ts";

const ANSWER = ["To reset it, ", "choose Forgot password ", "on the sign-in page [1]."];
const REPLY = "To reset it, choose Forgot password on the sign-in page.";
const QUESTION = "How do I reset my password?";

let ctx: TestContext;
let fake: FakeOpenAi;
let server: AppServer;

beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKey: "sk-test" });
  ctx = await createMessagingContext({ llm: { baseUrl: fake.baseUrl, apiKey: "sk-test", model: "fake-model", timeoutMs: 5_000 } });
  server = await startAppServer(ctx);
});

afterAll(async () => {
  await server?.close();
  await ctx?.close();
  await fake?.close();
});

afterEach(() => {
  expect(fake.pending()).toBe(0);
});

async function llmAgent(): Promise<TestAgent> {
  const agent = await createAgentWithKey(ctx);
  await ctx.db.prisma.agent.update({ where: { id: agent.id }, data: { engine: "llm" } });
  return agent;
}

function post(agent: TestAgent, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/api/agent/${agent.id}/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${agent.key}`, "content-type": "application/json", accept: "text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

interface Event {
  event: string;
  data: unknown;
}

/** Reads server-sent events as they arrive; `next()` waits for the next one. */
function eventsOf(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const all: Event[] = [];
  return {
    all,
    async next(): Promise<Event | undefined> {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const parsed = {
            event: /^event: (.*)$/m.exec(block)?.[1] ?? "message",
            data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null") as unknown,
          };
          all.push(parsed);
          return parsed;
        }
        const { done, value } = await reader.read();
        if (done) return undefined;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    async rest(): Promise<Event[]> {
      while (await this.next());
      return all;
    },
  };
}

async function usageOf(agentId: string) {
  return ctx.db.prisma.usageMonth.findFirst({ where: { agentId }, select: { conversations: true, tokens: true, turns: true } });
}

describe("POST .../messages with Accept: text/event-stream", () => {
  it("streams the reply's pieces as the model writes them, then the JSON form's body as stored", async () => {
    const agent = await llmAgent();
    fake.enqueue(streamedText(ANSWER, { pauseAfter: 2 }));

    const response = await post(agent, { message: QUESTION });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("ratelimit-policy")).toBe('"messages";q=30;w=60');
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const events = eventsOf(response);
    expect(await events.next()).toEqual({ event: "message.delta", data: { delta: "To reset it," } });
    expect(await events.next()).toEqual({ event: "message.delta", data: { delta: " choose Forgot password" } });
    // The model has paused mid-answer: the caller has part of it, nothing is stored yet.
    expect(await ctx.db.prisma.conversation.count({ where: { agentId: agent.id } })).toBe(0);
    fake.release();

    const rest = await events.rest();
    expect(rest.slice(2).map((event) => event.event)).toEqual(["message.delta", "message"]);
    const final = rest.at(-1)?.data as Record<string, unknown>;
    expect(Object.keys(final)).toEqual(["conversationId", "reply", "tokenUsage", "toolCalls", "richContent", "handoffRequested", "status"]);
    expect(final).toMatchObject({
      reply: REPLY,
      toolCalls: [{ name: "search_knowledge_base", args: { query: QUESTION } }],
      richContent: [{ type: "articles", articles: [{ id: "art-reset-password", title: "How to reset your password" }] }],
      handoffRequested: false,
      status: "active",
    });
    const deltas = rest.filter((event) => event.event === "message.delta").map((event) => (event.data as { delta: string }).delta);
    expect(deltas.join("")).toBe(REPLY);

    const stored = await ctx.db.prisma.message.findFirstOrThrow({
      where: { conversationId: final.conversationId as string, role: "agent" },
    });
    expect(stored.text).toBe(REPLY);
    expect(stored.richContent).toEqual(final.richContent);
    expect(await usageOf(agent.id)).toEqual({ conversations: 1, tokens: final.tokenUsage, turns: 1 });
  });

  it("counts usage, stores the turn and replays an Idempotency-Key exactly as the JSON form does", async () => {
    const agent = await llmAgent();
    fake.enqueue(streamedText(ANSWER));
    const key = { "idempotency-key": "stream-key-1" };

    const streamed = await eventsOf(await post(agent, { message: QUESTION }, key)).rest();
    const final = streamed.at(-1);
    expect(final?.event).toBe("message");

    // The same key again, in either form: the stored body, no second turn, no model call.
    const replayedStream = await post(agent, { message: QUESTION }, key);
    expect(replayedStream.headers.get("idempotent-replayed")).toBe("true");
    expect(await eventsOf(replayedStream).rest()).toEqual([final]);
    const replayedJson = await post(agent, { message: QUESTION }, { ...key, accept: "application/json" });
    expect(replayedJson.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await replayedJson.json()).toEqual(final?.data);
    const conflict = await post(agent, { message: "Something else" }, key);
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({ error: "Idempotency-Key reused with a different request" });

    expect(await ctx.db.prisma.message.count({ where: { conversation: { agentId: agent.id } } })).toBe(2);
    expect(await usageOf(agent.id)).toMatchObject({ conversations: 1, turns: 1 });
  });

  it("answers an error before the first piece with its status and JSON body, as the JSON form", async () => {
    const agent = await llmAgent();
    const missingKey = await fetch(`${server.url}/api/agent/${agent.id}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ message: QUESTION }),
    });
    expect(missingKey.status).toBe(401);
    expect(await missingKey.json()).toEqual({ error: "Missing bearer token" });

    const invalid = await post(agent, { message: "" });
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).error).toBe("Invalid request");

    fake.enqueue(errorResponse(500, "upstream exploded"));
    const failed = await post(agent, { message: QUESTION });
    expect(failed.status).toBe(500);
    expect(failed.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await failed.json()).toEqual({ error: "Internal error" });
    expect(await ctx.db.prisma.conversation.count({ where: { agentId: agent.id } })).toBe(0);
  });

  it("ends with an error event carrying the spec's error body when the turn fails mid-stream, storing nothing", async () => {
    const agent = await llmAgent();
    fake.enqueue(brokenStream(["Let me ", "check that "]));

    const response = await post(agent, { message: QUESTION });
    expect(response.status).toBe(200);
    const events = await eventsOf(response).rest();
    expect(events).toEqual([
      { event: "message.delta", data: { delta: "Let me" } },
      { event: "message.delta", data: { delta: " check that" } },
      { event: "error", data: { error: "Internal error" } },
    ]);
    expect(await ctx.db.prisma.conversation.count({ where: { agentId: agent.id } })).toBe(0);
    expect(await usageOf(agent.id)).toBeNull();
  });

  it("gives an engine that answers at once (the knowledge agent) one message event", async () => {
    const agent = await createAgentWithKey(ctx);
    const events = await eventsOf(await post(agent, { message: QUESTION })).rest();
    expect(events.map((event) => event.event)).toEqual(["message"]);
    // The reply as in the JSON form: the article's steps still a numbered list.
    expect(events[0]?.data).toMatchObject({
      reply: expect.stringMatching(/^From “How to reset your password”:\n\n1\. Go to the sign-in page .*\n2\. Choose Forgot password\? /),
    });
  });

  it("keeps a reply's Markdown lists and line breaks in its pieces, as in the reply stored", async () => {
    const agent = await llmAgent();
    fake.enqueue(
      streamedText([
        "To reset it:\n\n1. Open the ",
        "sign-in page [1].\n2. Choose ",
        "Forgot password.\n\n- It is free\n- It takes a minute",
      ]),
    );
    const events = await eventsOf(await post(agent, { message: QUESTION })).rest();
    const reply = "To reset it:\n\n1. Open the sign-in page.\n2. Choose Forgot password.\n\n- It is free\n- It takes a minute";
    const deltas = events.filter((event) => event.event === "message.delta").map((event) => (event.data as { delta: string }).delta);
    expect(deltas.join("")).toBe(reply);
    expect(events.at(-1)).toMatchObject({ event: "message", data: { reply } });
  });

  it("keeps the JSON form the default", async () => {
    const agent = await createAgentWithKey(ctx);
    for (const accept of [undefined, "application/json", "*/*", "text/event-stream;q=0, application/json"]) {
      const response = await post(agent, { message: QUESTION }, accept === undefined ? { accept: "" } : { accept });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(Object.keys(await response.json())).toEqual([
        "conversationId",
        "reply",
        "tokenUsage",
        "toolCalls",
        "richContent",
        "handoffRequested",
        "status",
      ]);
    }
  });
});

describe("@parley/client: the streamed reply", () => {
  function client(agent: TestAgent): Parley {
    return new Parley({ baseUrl: server.url, agentId: agent.id, apiKey: agent.key });
  }

  it("stream() yields deltas with the reply so far, then the reply", async () => {
    const agent = await llmAgent();
    fake.enqueue(streamedText(ANSWER));

    const events = [];
    for await (const event of client(agent).messages.stream({ message: QUESTION })) events.push(event);

    expect(events.slice(0, -1)).toEqual([
      { type: "delta", delta: "To reset it,", text: "To reset it," },
      { type: "delta", delta: " choose Forgot password", text: "To reset it, choose Forgot password" },
      { type: "delta", delta: " on the sign-in page.", text: REPLY },
    ]);
    expect(events.at(-1)).toMatchObject({ type: "message", message: { reply: REPLY, status: "active" } });
  });

  it("send() with onDelta calls back with each piece and resolves to the reply", async () => {
    const agent = await llmAgent();
    fake.enqueue(streamedText(ANSWER));
    const pieces: string[] = [];

    const reply = await client(agent).messages.send({ message: QUESTION }, { onDelta: (delta) => pieces.push(delta) });

    expect(pieces.join("")).toBe(REPLY);
    expect(reply.reply).toBe(REPLY);
    expect(await ctx.db.prisma.message.count({ where: { conversationId: reply.conversationId } })).toBe(2);
  });

  it("throws the error event as a typed error, after the pieces it had", async () => {
    const agent = await llmAgent();
    fake.enqueue(brokenStream(["Let me ", "check that "]));
    const pieces: string[] = [];

    const error = await client(agent)
      .messages.send({ message: QUESTION }, { onDelta: (delta) => pieces.push(delta) })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toBeInstanceOf(ParleyError);
    expect(error).toMatchObject({ status: 500, error: "Internal error" });
    expect(pieces.join("")).toBe("Let me check that");
  });
});

describe("the server entry's writer", () => {
  it("writes each piece of a streamed result as it is produced", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* pieces() {
      yield "event: message.delta\ndata: {}\n\n";
      await held;
      yield "event: message\ndata: {}\n\n";
    }
    const result: HttpResult = { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8" }, stream: pieces() };
    const http = createServer((_req, res) => void writeResult(res, result, "req-1"));
    http.listen(0, "127.0.0.1");
    await once(http, "listening");
    try {
      const response = await fetch(`http://127.0.0.1:${(http.address() as AddressInfo).port}/`);
      expect(response.headers.get("x-request-id")).toBe("req-1");
      expect(response.headers.get("content-length")).toBeNull();
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      // The first piece arrives while the second is still held back.
      expect(new TextDecoder().decode((await reader.read()).value)).toBe("event: message.delta\ndata: {}\n\n");
      release();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe("event: message\ndata: {}\n\n");
      expect((await reader.read()).done).toBe(true);
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });
});
