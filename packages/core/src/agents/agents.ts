// Agents of a workspace, as the control panel reads and edits them. The key hash never leaves
// this module: the panel sees whether a key is configured, its last 4 characters and its age.
import { isDeepStrictEqual } from "node:util";
import { type Database, Prisma } from "@parley/db";
import { z } from "zod";
import { recordAudit } from "../people/audit.ts";
import { PEOPLE_ERRORS } from "../people/errors.ts";
import { type AdminScope, rowId } from "../people/scope.ts";
import { AppError } from "../platform/errors.ts";
import { brandingInput, helpCentreName, readBranding } from "./branding.ts";
import { AGENTS_ERRORS } from "./errors.ts";
import {
  AGENT_ALLOWED_ORIGINS_MAX,
  AGENT_INSTRUCTIONS_MAX_CHARS,
  KNOWLEDGE_SYNONYM_GROUPS_MAX,
  KNOWLEDGE_SYNONYMS_MAX_CHARS,
  NAME_MAX_CHARS,
  RETENTION_DAYS_MAX,
  RETENTION_DAYS_MIN,
  WIDGET_LIMIT_SETTINGS,
} from "./limits.ts";
import { VOICE_LANGUAGE_MAX_CHARS, VOICE_LIMIT_SETTINGS, VOICE_MINUTES_PER_MONTH_MAX, VOICE_NAME_MAX_CHARS } from "./voice-settings.ts";

/** Agent ids chosen by an admin appear in URLs: lower-case letters, digits and dashes. */
const AGENT_SLUG = /^[a-z0-9][a-z0-9-]{1,62}$/;
/** Limits are Postgres integers; null means unlimited. */
const monthlyLimit = z.number().int().min(0).max(2_147_483_647).nullable();

/** A widget limit within its bounds (limits.ts); null means the default. */
function widgetLimit(name: keyof typeof WIDGET_LIMIT_SETTINGS) {
  const { min, max, default: fallback } = WIDGET_LIMIT_SETTINGS[name];
  const message = `Enter a whole number from ${min} to ${max}, or leave empty for the default (${fallback})`;
  return z.number(message).int(message).min(min, message).max(max, message).nullable();
}

/** A voice limit within its bounds (./voice-settings.ts); null means the default. */
function voiceLimit(name: keyof typeof VOICE_LIMIT_SETTINGS) {
  const { min, max, default: fallback } = VOICE_LIMIT_SETTINGS[name];
  const message = `Enter a whole number from ${min} to ${max}, or leave empty for the default (${fallback})`;
  return z.number(message).int(message).min(min, message).max(max, message).nullable();
}

const voiceMinutesMessage = `Enter a whole number of minutes from 0 to ${VOICE_MINUTES_PER_MONTH_MAX}, or leave empty for unlimited`;
/** Minutes of visitor audio a month; null means unlimited. */
const monthlyVoiceMinutesInput = z
  .number(voiceMinutesMessage)
  .int(voiceMinutesMessage)
  .min(0, voiceMinutesMessage)
  .max(VOICE_MINUTES_PER_MONTH_MAX, voiceMinutesMessage)
  .nullable();

/** The synthesis voice by the name the engine gives it; null means the engine's default. */
const voiceNameInput = z
  .string()
  .trim()
  .min(1, "Choose a voice, or Default")
  .max(VOICE_NAME_MAX_CHARS, `Use at most ${VOICE_NAME_MAX_CHARS} characters`)
  .nullable();

/** The language visitors speak: a language tag, as voice.start takes it. */
const voiceLanguageInput = z
  .string()
  .trim()
  .max(VOICE_LANGUAGE_MAX_CHARS, `Use at most ${VOICE_LANGUAGE_MAX_CHARS} characters`)
  .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$/, "Enter a language tag such as en or en-US");

const retentionMessage = `Enter a whole number of days from ${RETENTION_DAYS_MIN} to ${RETENTION_DAYS_MAX}, or leave empty to keep conversations`;
/** Days after which the agent's conversations are erased; null keeps them. */
const retentionDaysInput = z
  .number(retentionMessage)
  .int(retentionMessage)
  .min(RETENTION_DAYS_MIN, retentionMessage)
  .max(RETENTION_DAYS_MAX, retentionMessage)
  .nullable();

export const nameInput = z.string().trim().min(1, "Enter a name").max(NAME_MAX_CHARS);

/** An origin as browsers send it: scheme://host[:port], nothing after. */
const originInput = z
  .string()
  .trim()
  .transform((value) => value.replace(/\/+$/, ""))
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && url.origin === value.toLowerCase();
    } catch {
      return false;
    }
  }, "Enter an origin such as https://www.example.com (no path)")
  .transform((value) => value.toLowerCase());

/**
 * The agent's synonym groups as stored: one group a line, at least two phrases separated by
 * commas ("log in, sign in, login"); blank lines dropped, spaces tidied.
 */
export const knowledgeSynonymsInput = z
  .string()
  .max(KNOWLEDGE_SYNONYMS_MAX_CHARS, `Use at most ${KNOWLEDGE_SYNONYMS_MAX_CHARS} characters`)
  .transform((text) =>
    text
      .split(/\r?\n/)
      .map((line) =>
        line
          .split(",")
          .map((phrase) => phrase.trim().replace(/\s+/g, " "))
          .filter(Boolean)
          .join(", "),
      )
      .filter(Boolean),
  )
  .superRefine((lines, ctx) => {
    if (lines.length > KNOWLEDGE_SYNONYM_GROUPS_MAX)
      ctx.addIssue({ code: "custom", message: `Use at most ${KNOWLEDGE_SYNONYM_GROUPS_MAX} lines` });
    const single = lines.findIndex((line) => !line.includes(","));
    if (single >= 0) ctx.addIssue({ code: "custom", message: `Line ${single + 1}: give at least two phrases separated by commas` });
  })
  .transform((lines) => lines.join("\n"));

export const agentIdInput = z.object({ id: rowId });

export const createAgentInput = z.object({
  name: nameInput,
  id: z.string().trim().regex(AGENT_SLUG, "Use 2 to 63 lower-case letters, digits or dashes, starting with a letter or digit").optional(),
});

export const updateAgentInput = z.object({
  id: rowId,
  name: nameInput.optional(),
  active: z.boolean().optional(),
  httpApiEnabled: z.boolean().optional(),
  monthlyConversationLimit: monthlyLimit.optional(),
  monthlyTokenLimit: monthlyLimit.optional(),
  usageLimit: monthlyLimit.optional(),
  engine: z.enum(["knowledge", "llm"]).optional(),
  instructions: z.string().max(AGENT_INSTRUCTIONS_MAX_CHARS).optional(),
  answerBeyondArticles: z.boolean().optional(),
  knowledgeSynonyms: knowledgeSynonymsInput.optional(),
  allowedOrigins: z
    .array(originInput)
    .max(AGENT_ALLOWED_ORIGINS_MAX)
    .transform((origins) => [...new Set(origins)])
    .optional(),
  widgetConnectionsPerIp: widgetLimit("widgetConnectionsPerIp").optional(),
  widgetMessagesPerConnectionPerMinute: widgetLimit("widgetMessagesPerConnectionPerMinute").optional(),
  widgetMessagesPerIpPerMinute: widgetLimit("widgetMessagesPerIpPerMinute").optional(),
  widgetConversationsPerIpPerHour: widgetLimit("widgetConversationsPerIpPerHour").optional(),
  widgetMonthlyConversationLimit: monthlyLimit.optional(),
  widgetMonthlyTokenLimit: monthlyLimit.optional(),
  retentionDays: retentionDaysInput.optional(),
  /** Voice over the widget and SDK socket (off by default). */
  voiceEnabled: z.boolean().optional(),
  voiceName: voiceNameInput.optional(),
  voiceLanguage: voiceLanguageInput.optional(),
  monthlyVoiceMinutesLimit: monthlyVoiceMinutesInput.optional(),
  voiceSessionsPerIp: voiceLimit("voiceSessionsPerIp").optional(),
  voiceMinutesPerSession: voiceLimit("voiceMinutesPerSession").optional(),
  /** The help centre's and the widget's look, replaced as a whole. */
  branding: brandingInput.optional(),
});

const summarySelect = {
  id: true,
  name: true,
  active: true,
  httpApiEnabled: true,
  engine: true,
  keyHash: true,
  keyLast4: true,
  keyCreatedAt: true,
  createdAt: true,
} satisfies Prisma.AgentSelect;

const detailSelect = {
  ...summarySelect,
  updatedAt: true,
  monthlyConversationLimit: true,
  monthlyTokenLimit: true,
  usageLimit: true,
  instructions: true,
  answerBeyondArticles: true,
  knowledgeSynonyms: true,
  allowedOrigins: true,
  widgetConnectionsPerIp: true,
  widgetMessagesPerConnectionPerMinute: true,
  widgetMessagesPerIpPerMinute: true,
  widgetConversationsPerIpPerHour: true,
  widgetMonthlyConversationLimit: true,
  widgetMonthlyTokenLimit: true,
  retentionDays: true,
  voiceEnabled: true,
  voiceName: true,
  voiceLanguage: true,
  monthlyVoiceMinutesLimit: true,
  voiceSessionsPerIp: true,
  voiceMinutesPerSession: true,
  sources: { select: { sourceId: true }, orderBy: { createdAt: "asc" } },
  branding: true,
  workspace: { select: { name: true } },
} satisfies Prisma.AgentSelect;

type SummaryRow = Prisma.AgentGetPayload<{ select: typeof summarySelect }>;
type DetailRow = Prisma.AgentGetPayload<{ select: typeof detailSelect }>;

function toSummary({ keyHash, ...row }: SummaryRow) {
  return {
    id: row.id,
    name: row.name,
    active: row.active,
    httpApiEnabled: row.httpApiEnabled,
    engine: row.engine,
    keyConfigured: keyHash !== null,
    keyLast4: keyHash !== null ? row.keyLast4 : null,
    keyCreatedAt: keyHash !== null ? row.keyCreatedAt : null,
    createdAt: row.createdAt,
  };
}

function toDetail(row: DetailRow) {
  const branding = readBranding(row.branding);
  return {
    ...toSummary(row),
    updatedAt: row.updatedAt,
    monthlyConversationLimit: row.monthlyConversationLimit,
    monthlyTokenLimit: row.monthlyTokenLimit,
    usageLimit: row.usageLimit,
    instructions: row.instructions,
    answerBeyondArticles: row.answerBeyondArticles,
    knowledgeSynonyms: row.knowledgeSynonyms,
    allowedOrigins: row.allowedOrigins,
    widgetConnectionsPerIp: row.widgetConnectionsPerIp,
    widgetMessagesPerConnectionPerMinute: row.widgetMessagesPerConnectionPerMinute,
    widgetMessagesPerIpPerMinute: row.widgetMessagesPerIpPerMinute,
    widgetConversationsPerIpPerHour: row.widgetConversationsPerIpPerHour,
    widgetMonthlyConversationLimit: row.widgetMonthlyConversationLimit,
    widgetMonthlyTokenLimit: row.widgetMonthlyTokenLimit,
    retentionDays: row.retentionDays,
    voiceEnabled: row.voiceEnabled,
    voiceName: row.voiceName,
    voiceLanguage: row.voiceLanguage,
    monthlyVoiceMinutesLimit: row.monthlyVoiceMinutesLimit,
    voiceSessionsPerIp: row.voiceSessionsPerIp,
    voiceMinutesPerSession: row.voiceMinutesPerSession,
    sourceIds: row.sources.map((link) => link.sourceId),
    branding,
    helpCentreName: helpCentreName(branding, row.workspace.name),
  };
}

export type AgentSummary = ReturnType<typeof toSummary>;
export type AgentDetail = ReturnType<typeof toDetail>;

export async function listAgents(db: Database, workspaceId: string): Promise<AgentSummary[]> {
  const rows = await db.prisma.agent.findMany({
    where: { workspaceId },
    select: summarySelect,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toSummary);
}

export async function getAgent(db: Database, workspaceId: string, id: string): Promise<AgentDetail> {
  const row = await db.prisma.agent.findFirst({ where: { id, workspaceId }, select: detailSelect });
  if (!row) throw new AppError(PEOPLE_ERRORS.AGENT_NOT_FOUND);
  return toDetail(row);
}

export async function createAgent(db: Database, scope: AdminScope, input: z.infer<typeof createAgentInput>): Promise<AgentDetail> {
  try {
    const row = await db.prisma.$transaction(async (tx) => {
      const created = await tx.agent.create({
        data: { id: input.id, workspaceId: scope.workspaceId, name: input.name },
        select: detailSelect,
      });
      await recordAudit(tx, scope, { action: "agent.created", targetType: "agent", targetId: created.id, targetLabel: created.name });
      return created;
    });
    return toDetail(row);
  } catch (error) {
    // Agent ids are global (they appear in public URLs), so the id may be taken by any workspace.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw new AppError(AGENTS_ERRORS.AGENT_ID_TAKEN);
    throw error;
  }
}

/**
 * Changes an agent's settings. The audit log names the fields that changed (never their values); a
 * change of the synonyms alone reads as such.
 */
export async function updateAgent(db: Database, scope: AdminScope, input: z.infer<typeof updateAgentInput>): Promise<AgentDetail> {
  const { id, ...fields } = input;
  await db.prisma.$transaction(async (tx) => {
    const current = await tx.agent.findFirst({ where: { id, workspaceId: scope.workspaceId }, select: detailSelect });
    if (!current) throw new AppError(PEOPLE_ERRORS.AGENT_NOT_FOUND);
    const changed = Object.entries(fields)
      .filter(([name, value]) => value !== undefined && !isDeepStrictEqual(value, current[name as keyof typeof current]))
      .map(([name]) => name)
      .sort();
    await tx.agent.update({ where: { id }, data: fields });
    if (changed.length === 0) return;
    const action = changed.length === 1 && changed[0] === "knowledgeSynonyms" ? "agent.synonyms.updated" : "agent.updated";
    const targetLabel = fields.name ?? current.name;
    await recordAudit(tx, scope, { action, targetType: "agent", targetId: id, targetLabel, detail: { fields: changed } });
  });
  return getAgent(db, scope.workspaceId, id);
}
