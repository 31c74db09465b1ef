// The usage page (the `usage` router of packages/api).
import { z } from "zod";
import { panelOperationsOver } from "../people/panel-operation.ts";
import type { PlatformContext } from "../platform/context.ts";
import { count, id, optionalLimit } from "../platform/panel-outputs.ts";
import { dailyUsage, dailyUsageInput, usageSummary } from "./usage.ts";

export const usageSummaryOutput = z.array(
  z.object({
    agentId: id,
    agentName: z.string(),
    /** "YYYY-MM" (UTC). */
    month: z.string(),
    conversations: count,
    tokens: count,
    turns: count,
    monthlyConversationLimit: optionalLimit,
    monthlyTokenLimit: optionalLimit,
    usageLimit: optionalLimit,
    /** Voice: on for the agent, minutes heard this month (seconds rounded up), the monthly limit. */
    voiceEnabled: z.boolean(),
    voiceMinutes: count,
    monthlyVoiceMinutesLimit: optionalLimit,
  }),
);

export const dailyUsageOutput = z.array(
  z.object({
    /** "YYYY-MM-DD" (UTC). */
    date: z.string(),
    conversations: count,
    tokens: count,
  }),
);

const panel = panelOperationsOver<PlatformContext>();

export const usageOperations = {
  summary: panel.query({
    permission: "usage.read",
    output: usageSummaryOutput,
    run: ({ app, scope }) => usageSummary(app.db, scope.workspaceId, app.now()),
  }),
  daily: panel.query({
    permission: "usage.read",
    input: dailyUsageInput,
    output: dailyUsageOutput,
    run: ({ app, scope }, input) => dailyUsage(app.db, scope.workspaceId, input, app.now()),
  }),
};
