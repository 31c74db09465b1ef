// The control panel's operations on agents (the `agents` router of packages/api; the knowledge
// search, voice, deletion and test chat procedures of that router live in the modules they call).
import { z } from "zod";
import { panelOperationsOver } from "../people/panel-operation.ts";
import type { PlatformContext } from "../platform/context.ts";
import { id, moment, optionalLimit } from "../platform/panel-outputs.ts";
import { agentIdInput, createAgent, createAgentInput, getAgent, listAgents, updateAgent, updateAgentInput } from "./agents.ts";

export const agentSummaryOutput = z.object({
  id,
  name: z.string(),
  active: z.boolean(),
  httpApiEnabled: z.boolean(),
  engine: z.enum(["knowledge", "llm"]),
  keyConfigured: z.boolean(),
  keyLast4: z.string().nullable(),
  keyCreatedAt: moment.nullable(),
  createdAt: moment,
});

export const agentListOutput = z.array(agentSummaryOutput);

export const agentDetailOutput = z.object({
  ...agentSummaryOutput.shape,
  updatedAt: moment,
  monthlyConversationLimit: optionalLimit,
  monthlyTokenLimit: optionalLimit,
  usageLimit: optionalLimit,
  instructions: z.string(),
  answerBeyondArticles: z.boolean(),
  knowledgeSynonyms: z.string(),
  allowedOrigins: z.array(z.string()),
  widgetConnectionsPerIp: optionalLimit,
  widgetMessagesPerConnectionPerMinute: optionalLimit,
  widgetMessagesPerIpPerMinute: optionalLimit,
  widgetConversationsPerIpPerHour: optionalLimit,
  widgetMonthlyConversationLimit: optionalLimit,
  widgetMonthlyTokenLimit: optionalLimit,
  /** Conversations are erased after this many days; null keeps them. */
  retentionDays: optionalLimit,
  /** Voice over the widget and SDK socket; a null voice name is the engine's default. */
  voiceEnabled: z.boolean(),
  voiceName: z.string().nullable(),
  voiceLanguage: z.string(),
  /** Minutes of visitor audio a month; null: unlimited. */
  monthlyVoiceMinutesLimit: optionalLimit,
  voiceSessionsPerIp: optionalLimit,
  voiceMinutesPerSession: optionalLimit,
  sourceIds: z.array(id),
  branding: z.object({
    helpName: z.string(),
    logoUrl: z.string(),
    accentColor: z.string(),
    footerLink: z.object({ label: z.string(), url: z.string() }).nullable(),
    widgetTitle: z.string(),
    widgetGreeting: z.string(),
    widgetAccentColor: z.string(),
    suggestions: z.array(z.object({ text: z.string(), articleId: z.string().nullable() })),
  }),
  /** The help centre's public name: the one set, else the default built from the workspace's name. */
  helpCentreName: z.string(),
});

const panel = panelOperationsOver<PlatformContext>();

export const agentOperations = {
  list: panel.query({
    permission: "agents.list",
    output: agentListOutput,
    run: ({ app, scope }) => listAgents(app.db, scope.workspaceId),
  }),
  get: panel.query({
    permission: "agents.read",
    input: agentIdInput,
    output: agentDetailOutput,
    run: ({ app, scope }, input) => getAgent(app.db, scope.workspaceId, input.id),
  }),
  create: panel.mutation({
    permission: "agents.write",
    input: createAgentInput,
    output: agentDetailOutput,
    run: ({ app, scope }, input) => createAgent(app.db, scope, input),
  }),
  update: panel.mutation({
    permission: "agents.write",
    input: updateAgentInput,
    output: agentDetailOutput,
    run: ({ app, scope }, input) => updateAgent(app.db, scope, input),
  }),
};
