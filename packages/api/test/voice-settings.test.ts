// The panel's side of voice through the procedures, on a real database: an agent's voice settings
// (off by default, stored, bounds refused with the form's texts, audited, managers only), what the
// server's speech engines offer, the month's voice minutes in usage, and spoken / interrupted
// messages in the inbox's transcript.
import { type AppContext, fieldMessage } from "@parley/core";
import type { TestContext } from "@parley/testing/context";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { callerFor, NOW, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;

beforeAll(async () => {
  ({ ctx, a } = await setup());
});

afterAll(async () => {
  await ctx?.close();
});

/** The field errors a refused update shows in the form: [field, message] of each issue. */
async function refusal(promise: Promise<unknown>): Promise<Array<[string, string]>> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TRPCError);
  expect((error as TRPCError).code).toBe("BAD_REQUEST");
  const cause = (error as TRPCError).cause;
  expect(cause).toBeInstanceOf(ZodError);
  return (cause as ZodError).issues.map((issue) => [issue.path.join("."), fieldMessage(issue)]);
}

const VOICE_DEFAULTS = {
  voiceEnabled: false,
  voiceName: null,
  voiceLanguage: "en",
  monthlyVoiceMinutesLimit: null,
  voiceSessionsPerIp: null,
  voiceMinutesPerSession: null,
};

describe("an agent's voice settings", () => {
  it("are off by default, and saved, read back and cleared to the defaults with null", async () => {
    const caller = callerFor(ctx, a.scope);
    const { id } = await caller.agents.create({ name: "Voice agent" });
    expect(await caller.agents.get({ id })).toMatchObject(VOICE_DEFAULTS);

    const settings = {
      voiceEnabled: true,
      voiceName: "en-us+f3",
      voiceLanguage: "en-US",
      monthlyVoiceMinutesLimit: 600,
      voiceSessionsPerIp: 3,
      voiceMinutesPerSession: 15,
    };
    expect(await caller.agents.update({ id, ...settings })).toMatchObject(settings);
    expect(await ctx.db.prisma.agent.findUniqueOrThrow({ where: { id } })).toMatchObject(settings);
    // Other settings are untouched; null lifts a limit or goes back to the default voice.
    const cleared = await caller.agents.update({ id, voiceName: null, monthlyVoiceMinutesLimit: null, voiceSessionsPerIp: null });
    expect(cleared).toMatchObject({
      ...settings,
      voiceName: null,
      monthlyVoiceMinutesLimit: null,
      voiceSessionsPerIp: null,
      name: "Voice agent",
    });
    // The bounds themselves are accepted: 0 minutes a month turns voice off by quota.
    expect(
      await caller.agents.update({ id, monthlyVoiceMinutesLimit: 0, voiceSessionsPerIp: 100, voiceMinutesPerSession: 120 }),
    ).toMatchObject({ monthlyVoiceMinutesLimit: 0, voiceSessionsPerIp: 100, voiceMinutesPerSession: 120 });
    expect(
      await caller.agents.update({ id, monthlyVoiceMinutesLimit: 1_000_000, voiceSessionsPerIp: 1, voiceMinutesPerSession: 1 }),
    ).toMatchObject({ monthlyVoiceMinutesLimit: 1_000_000, voiceSessionsPerIp: 1, voiceMinutesPerSession: 1 });
  });

  it("refuses values out of bounds with the rule next to the field, and stores nothing", async () => {
    const caller = callerFor(ctx, a.scope);
    const { id } = await caller.agents.create({ name: "Voice bounds" });
    const sessions = "Enter a whole number from 1 to 100, or leave empty for the default (2)";
    const minutes = "Enter a whole number from 1 to 120, or leave empty for the default (10)";
    const monthly = "Enter a whole number of minutes from 0 to 1000000, or leave empty for unlimited";
    for (const [field, value, message] of [
      ["voiceSessionsPerIp", 0, sessions],
      ["voiceSessionsPerIp", 101, sessions],
      ["voiceSessionsPerIp", 1.5, sessions],
      ["voiceMinutesPerSession", 0, minutes],
      ["voiceMinutesPerSession", 121, minutes],
      ["voiceMinutesPerSession", "10", minutes],
      ["monthlyVoiceMinutesLimit", -1, monthly],
      ["monthlyVoiceMinutesLimit", 1_000_001, monthly],
      ["monthlyVoiceMinutesLimit", 2.5, monthly],
      ["voiceName", "", "Choose a voice, or Default"],
      ["voiceName", "v".repeat(101), "Use at most 100 characters"],
      ["voiceLanguage", "english please", "Enter a language tag such as en or en-US"],
      ["voiceLanguage", "", "Enter a language tag such as en or en-US"],
      ["voiceEnabled", "yes", "This value can't be used here."],
    ] as const) {
      expect(await refusal(caller.agents.update({ id, [field]: value } as never)), `${field}=${value}`).toEqual([[field, message]]);
    }
    expect(await refusal(caller.agents.update({ id, voiceLanguage: `en-${"a".repeat(40)}` }))).toContainEqual([
      "voiceLanguage",
      "Use at most 35 characters",
    ]);
    expect(await caller.agents.get({ id })).toMatchObject(VOICE_DEFAULTS);
  });

  it("are written to the audit log by field name", async () => {
    const caller = callerFor(ctx, a.scope);
    const { id } = await caller.agents.create({ name: "Voice audit" });
    await caller.agents.update({ id, voiceEnabled: true, monthlyVoiceMinutesLimit: 30, voiceLanguage: "en" });
    const events = await ctx.db.prisma.auditEvent.findMany({ where: { targetId: id, action: "agent.updated" } });
    expect(events).toHaveLength(1);
    // voiceLanguage was already "en": not a change.
    expect(events[0]).toMatchObject({
      actorUserId: a.scope.userId,
      targetLabel: "Voice audit",
      detail: { fields: ["monthlyVoiceMinutesLimit", "voiceEnabled"] },
    });
  });

  it("may be read and changed by owners and admins only, like the other settings", async () => {
    for (const role of ["editor", "support"] as const) {
      const caller = callerFor(ctx, { ...a.scope, role });
      await expect(caller.agents.update({ id: a.agentId, voiceEnabled: true }), role).rejects.toMatchObject({
        code: "FORBIDDEN",
        message: "Forbidden",
      });
      await expect(caller.agents.voiceAvailability(), role).rejects.toMatchObject({ code: "FORBIDDEN", message: "Forbidden" });
    }
    expect((await ctx.db.prisma.agent.findUniqueOrThrow({ where: { id: a.agentId } })).voiceEnabled).toBe(false);
    const admin = callerFor(ctx, { ...a.scope, role: "admin" });
    expect(await admin.agents.update({ id: a.agentId, voiceEnabled: true })).toMatchObject({ voiceEnabled: true });
    await admin.agents.update({ id: a.agentId, voiceEnabled: false });
  });
});

describe("agents.voiceAvailability", () => {
  function speech(recognition: string | null): NonNullable<AppContext["speech"]> {
    return {
      vad: () => {
        throw new Error("not used");
      },
      stt: recognition === null ? null : { name: recognition, transcribe: async () => ({ text: "" }) },
      tts: { name: "espeak-ng", voices: ["en-us", "en-us+f3"], synthesize: async () => new Int16Array() },
      close: async () => {},
    };
  }

  it("names the server's recognition, synthesis and voices", async () => {
    const caller = callerFor({ ...ctx, speech: speech("pocketsphinx") }, a.scope);
    expect(await caller.agents.voiceAvailability()).toEqual({
      recognition: "pocketsphinx",
      synthesis: "espeak-ng",
      voices: ["en-us", "en-us+f3"],
    });
  });

  it("says recognition is missing (null) when the server has none, or no speech engines at all", async () => {
    expect(await callerFor({ ...ctx, speech: speech(null) }, a.scope).agents.voiceAvailability()).toEqual({
      recognition: null,
      synthesis: "espeak-ng",
      voices: ["en-us", "en-us+f3"],
    });
    expect(await callerFor(ctx, a.scope).agents.voiceAvailability()).toEqual({ recognition: null, synthesis: "none", voices: [] });
  });
});

describe("voice in usage and transcripts", () => {
  it("shows the month's voice minutes, heard seconds rounded up, with the agent's limit", async () => {
    const caller = callerFor(ctx, a.scope);
    const { id } = await caller.agents.create({ name: "Voice usage" });
    const row = async () => (await caller.usage.summary()).find((usage) => usage.agentId === id);
    expect(await row()).toMatchObject({ voiceEnabled: false, voiceMinutes: 0, monthlyVoiceMinutesLimit: null });

    await caller.agents.update({ id, voiceEnabled: true, monthlyVoiceMinutesLimit: 5 });
    await ctx.db.prisma.usageMonth.create({ data: { agentId: id, month: "2026-11", voiceSeconds: 61 } });
    // Last month's seconds are not this month's.
    await ctx.db.prisma.usageMonth.create({ data: { agentId: id, month: "2026-10", voiceSeconds: 6_000 } });
    expect(await row()).toMatchObject({ month: "2026-11", voiceEnabled: true, voiceMinutes: 2, monthlyVoiceMinutesLimit: 5 });
    await ctx.db.prisma.usageMonth.update({ where: { agentId_month: { agentId: id, month: "2026-11" } }, data: { voiceSeconds: 120 } });
    expect(await row()).toMatchObject({ voiceMinutes: 2 });
  });

  it("marks spoken messages and interrupted replies in the conversation the inbox reads", async () => {
    const conversation = await ctx.db.prisma.conversation.create({
      data: {
        agentId: a.agentId,
        channel: "widget",
        messageCount: 3,
        createdAt: NOW,
        messages: {
          create: [
            { role: "user", text: "How do I reset my password?", sequence: 0, voice: true },
            { role: "agent", text: "Open Settings, then", sequence: 1, voice: true, interrupted: true },
            { role: "user", text: "Typed follow-up", sequence: 2 },
          ],
        },
      },
    });
    const { messages } = await callerFor(ctx, a.scope).conversations.get({ id: conversation.id });
    expect(messages.map(({ text, voice, interrupted }) => ({ text, voice, interrupted }))).toEqual([
      { text: "How do I reset my password?", voice: true, interrupted: false },
      { text: "Open Settings, then", voice: true, interrupted: true },
      { text: "Typed follow-up", voice: false, interrupted: false },
    ]);
  });
});
