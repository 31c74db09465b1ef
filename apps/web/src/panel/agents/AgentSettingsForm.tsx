"use client";
// The agent page's settings, one form per tab (General, Answers, Channels, Limits): each Save sends
// only its tab's fields (agents.update takes any subset), so saving one tab never overwrites what
// another tab holds unsaved, or what someone else changed there meanwhile.

import { WIDGET_LIMIT_SETTINGS } from "@parley/core/agents/limits";
import { VOICE_LIMIT_SETTINGS } from "@parley/core/browser";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { fieldErrors } from "../errors.ts";
import { limitText, parseLimit } from "../format.ts";
import { type RouterInputs, type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { CheckboxField, TextAreaField, TextField } from "../ui/fields.tsx";
import { PanelForm } from "../ui/form.tsx";
import { ActionStatus } from "../ui/status.tsx";
import { VoiceSettings, type VoiceValues } from "./VoiceSettings.tsx";

type Agent = RouterOutputs["agents"]["get"];
type AgentChanges = Omit<RouterInputs["agents"]["update"], "id">;
type MonthlyField = "monthlyConversationLimit" | "monthlyTokenLimit" | "usageLimit" | "monthlyVoiceMinutesLimit";
type WidgetShareField = "widgetMonthlyConversationLimit" | "widgetMonthlyTokenLimit";
type WidgetLimitField = keyof typeof WIDGET_LIMIT_SETTINGS;
type VoiceLimitField = keyof typeof VOICE_LIMIT_SETTINGS;
type LimitField = MonthlyField | WidgetShareField | WidgetLimitField | VoiceLimitField;

const monthlyFields: Array<{ field: MonthlyField; label: string; hint: string }> = [
  {
    field: "monthlyConversationLimit",
    label: "Monthly conversation limit",
    hint: "New conversations per calendar month (UTC). Empty = unlimited.",
  },
  { field: "monthlyTokenLimit", label: "Monthly token limit", hint: "Text tokens per calendar month (UTC). Empty = unlimited." },
  { field: "usageLimit", label: "Usage limit", hint: "Agent turns per calendar month (UTC). Empty = unlimited." },
  {
    field: "monthlyVoiceMinutesLimit",
    label: "Monthly voice minutes",
    hint: "Minutes of visitors' speech heard per calendar month (UTC); then voice is refused and text chat goes on. Empty = unlimited.",
  },
];

/** The widget's share of the monthly quotas above (it shares them with the HTTP API). */
const widgetShareFields: Array<{ field: WidgetShareField; label: string; hint: string }> = [
  {
    field: "widgetMonthlyConversationLimit",
    label: "Widget conversations per month, at most",
    hint: "How many of the monthly conversations the widget and SDK may start. Empty = no cap of their own.",
  },
  {
    field: "widgetMonthlyTokenLimit",
    label: "Widget tokens per month, at most",
    hint: "How many of the monthly tokens widget and SDK turns may use. Empty = no cap of their own.",
  },
];

/** Limits on what one visitor's address or page can do over the widget and SDK. */
const widgetLimitFields: Array<{ field: WidgetLimitField; label: string; what: string }> = [
  { field: "widgetConnectionsPerIp", label: "Connections per visitor IP", what: "Open at the same time" },
  { field: "widgetMessagesPerConnectionPerMinute", label: "Messages per connection per minute", what: "From one page" },
  { field: "widgetMessagesPerIpPerMinute", label: "Messages per visitor IP per minute", what: "From all pages of one address" },
  { field: "widgetConversationsPerIpPerHour", label: "New conversations per visitor IP per hour", what: "Started from one address" },
];

/** Limits on one visitor's voice sessions (voice is the widget's and SDK's too). */
const voiceLimitFields: Array<{ field: VoiceLimitField; label: string; what: string }> = [
  { field: "voiceSessionsPerIp", label: "Voice sessions per visitor IP", what: "Talking at the same time" },
  { field: "voiceMinutesPerSession", label: "Minutes per voice session", what: "Then voice stops and text chat goes on" },
];

/** A limit's hint with its bounds and default (agents/limits.ts, agents/voice-settings.ts). */
function limitHint(bounds: { min: number; max: number; default: number }, what: string): string {
  return `${what}. ${bounds.min} to ${bounds.max}; empty = default (${bounds.default}).`;
}

/**
 * One tab's form: its fields, one Save that sends `changes()` (null: the browser found problems,
 * already shown), and what it says once saved.
 */
function SettingsForm(props: {
  agentId: string;
  saveLabel: string;
  savedText: string;
  /** The tab's changes, or null with `setLocalErrors` called when a field cannot be read. */
  changes(): AgentChanges | null;
  localErrors: Record<string, string>;
  children(errors: Record<string, string | undefined>): ReactNode;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useMutation(
    trpc.agents.update.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries(trpc.agents.get.queryFilter({ id: props.agentId })),
          queryClient.invalidateQueries(trpc.agents.list.queryFilter()),
          queryClient.invalidateQueries(trpc.usage.summary.queryFilter()),
        ]),
    }),
  );
  const errors = { ...fieldErrors(update.error), ...props.localErrors };
  const hasLocalErrors = Object.keys(props.localErrors).length > 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    const changes = props.changes();
    if (changes === null) {
      update.reset();
      return;
    }
    update.mutate({ id: props.agentId, ...changes });
  }

  return (
    // Any edit clears the "saved" note of the previous save.
    <PanelForm onSubmit={submit} onChange={() => update.isSuccess && update.reset()} className="form">
      {props.children(errors)}
      <div className="form-actions">
        <ActionButton type="submit" variant="primary" pending={update.isPending}>
          {props.saveLabel}
        </ActionButton>
      </div>
      <ActionStatus
        error={update.error ?? (hasLocalErrors ? new Error("Please correct the highlighted fields.") : undefined)}
        success={update.isSuccess ? props.savedText : undefined}
      />
    </PanelForm>
  );
}

/** General: the name, whether the agent answers at all, and how long conversations are kept. */
export function GeneralSettings({ agent }: { agent: Agent }) {
  const [name, setName] = useState(agent.name);
  const [active, setActive] = useState(agent.active);
  const [retentionDays, setRetentionDays] = useState(limitText(agent.retentionDays));
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});

  function changes(): AgentChanges | null {
    const retention = parseLimit(retentionDays, "keep forever");
    setLocalErrors("error" in retention ? { retentionDays: retention.error } : {});
    if ("error" in retention) return null;
    return { name, active, retentionDays: retention.value };
  }

  return (
    <SettingsForm
      agentId={agent.id}
      saveLabel="Save general settings"
      savedText="General settings saved."
      changes={changes}
      localErrors={localErrors}
    >
      {(errors) => (
        <>
          <TextField
            label="Name"
            name="name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={errors.name}
            autoComplete="off"
          />
          <CheckboxField
            label="Active"
            name="active"
            checked={active}
            onChange={(event) => setActive(event.target.checked)}
            error={errors.active}
            hint="Inactive agents answer nothing: the API and help centre return 404. Deactivated, not deleted: its conversations stay (an owner can delete the agent in the Danger zone tab)."
          />
          <TextField
            label="Erase conversations older than (days)"
            name="retentionDays"
            inputMode="numeric"
            value={retentionDays}
            onChange={(event) => setRetentionDays(event.target.value)}
            error={errors.retentionDays}
            hint="Conversations with no activity for this many days (1 to 3650) have their visitor's data erased automatically, within an hour. Counts and usage stay. Empty = keep forever."
          />
        </>
      )}
    </SettingsForm>
  );
}

/** Answers: the engine, what it may answer from, its instructions and the search's synonyms. */
export function AnswerSettings({ agent }: { agent: Agent }) {
  const [engine, setEngine] = useState<"knowledge" | "llm">(agent.engine);
  const [instructions, setInstructions] = useState(agent.instructions);
  const [answerBeyondArticles, setAnswerBeyondArticles] = useState(agent.answerBeyondArticles);
  const [synonyms, setSynonyms] = useState(agent.knowledgeSynonyms);

  return (
    <SettingsForm
      agentId={agent.id}
      saveLabel="Save answer settings"
      savedText="Answer settings saved."
      changes={() => ({ engine, instructions, answerBeyondArticles, knowledgeSynonyms: synonyms })}
      localErrors={{}}
    >
      {(errors) => (
        <>
          <fieldset aria-describedby={errors.engine ? "agent-engine-error" : undefined}>
            <legend>Engine</legend>
            <div className="field field-checkbox">
              <input
                id="agent-engine-knowledge"
                type="radio"
                name="engine"
                value="knowledge"
                checked={engine === "knowledge"}
                onChange={() => setEngine("knowledge")}
              />
              <label htmlFor="agent-engine-knowledge">Knowledge — answers from the linked articles (no external service)</label>
            </div>
            <div className="field field-checkbox">
              <input
                id="agent-engine-llm"
                type="radio"
                name="engine"
                value="llm"
                checked={engine === "llm"}
                onChange={() => setEngine("llm")}
              />
              <label htmlFor="agent-engine-llm">LLM — an OpenAI-compatible model with knowledge search and handoff tools</label>
            </div>
            <CheckboxField
              label="LLM may answer beyond the help articles"
              name="answerBeyondArticles"
              checked={answerBeyondArticles}
              onChange={(event) => setAnswerBeyondArticles(event.target.checked)}
              error={errors.answerBeyondArticles}
              hint="Off: the LLM answers only from the passages found in the linked articles, and says it does not know otherwise. On: it may also use its general knowledge, and says so."
            />
            {errors.engine ? (
              <span id="agent-engine-error" className="field-error">
                {errors.engine}
              </span>
            ) : null}
          </fieldset>
          <TextAreaField
            label="Instructions"
            name="instructions"
            rows={5}
            value={instructions}
            onChange={(event) => setInstructions(event.target.value)}
            error={errors.instructions}
            hint="How the agent should behave and speak."
          />
          <TextAreaField
            label="Synonyms"
            name="knowledgeSynonyms"
            rows={4}
            value={synonyms}
            onChange={(event) => setSynonyms(event.target.value)}
            error={errors.knowledgeSynonyms}
            hint="One group per line, phrases separated by commas, like: log in, sign in, access my account. The knowledge search treats each phrase of a group as the others, on top of its built-in ones."
            spellCheck={false}
          />
        </>
      )}
    </SettingsForm>
  );
}

/** Channels: the HTTP API switch, the sites allowed to run the widget and SDK, and voice. */
export function ChannelSettings({ agent }: { agent: Agent }) {
  const [httpApiEnabled, setHttpApiEnabled] = useState(agent.httpApiEnabled);
  const [origins, setOrigins] = useState(agent.allowedOrigins.join("\n"));
  const [voice, setVoice] = useState<VoiceValues>({
    voiceEnabled: agent.voiceEnabled,
    voiceName: agent.voiceName ?? "",
    voiceLanguage: agent.voiceLanguage,
  });

  function changes(): AgentChanges {
    return {
      httpApiEnabled,
      allowedOrigins: origins
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean),
      voiceEnabled: voice.voiceEnabled,
      voiceName: voice.voiceName === "" ? null : voice.voiceName,
      voiceLanguage: voice.voiceLanguage,
    };
  }

  return (
    <SettingsForm
      agentId={agent.id}
      saveLabel="Save channel settings"
      savedText="Channel settings saved."
      changes={changes}
      localErrors={{}}
    >
      {(errors) => (
        <>
          <CheckboxField
            label="HTTP API enabled"
            name="httpApiEnabled"
            checked={httpApiEnabled}
            onChange={(event) => setHttpApiEnabled(event.target.checked)}
            error={errors.httpApiEnabled}
            hint="Lets backends send messages with the agent's API key (the API key tab)."
          />
          <TextAreaField
            label="Allowed origins"
            name="allowedOrigins"
            rows={3}
            value={origins}
            onChange={(event) => setOrigins(event.target.value)}
            error={errors.allowedOrigins}
            hint="One per line, like https://www.example.com. Sites allowed to use the widget and SDK."
            spellCheck={false}
          />
          <VoiceSettings values={voice} errors={errors} onChange={(change) => setVoice((current) => ({ ...current, ...change }))} />
        </>
      )}
    </SettingsForm>
  );
}

/** Limits: the monthly quotas, the widget's share of them, and per-visitor widget and voice limits. */
export function LimitSettings({ agent }: { agent: Agent }) {
  const [values, setValues] = useState<Record<LimitField, string>>({
    monthlyConversationLimit: limitText(agent.monthlyConversationLimit),
    monthlyTokenLimit: limitText(agent.monthlyTokenLimit),
    usageLimit: limitText(agent.usageLimit),
    monthlyVoiceMinutesLimit: limitText(agent.monthlyVoiceMinutesLimit),
    widgetMonthlyConversationLimit: limitText(agent.widgetMonthlyConversationLimit),
    widgetMonthlyTokenLimit: limitText(agent.widgetMonthlyTokenLimit),
    widgetConnectionsPerIp: limitText(agent.widgetConnectionsPerIp),
    widgetMessagesPerConnectionPerMinute: limitText(agent.widgetMessagesPerConnectionPerMinute),
    widgetMessagesPerIpPerMinute: limitText(agent.widgetMessagesPerIpPerMinute),
    widgetConversationsPerIpPerHour: limitText(agent.widgetConversationsPerIpPerHour),
    voiceSessionsPerIp: limitText(agent.voiceSessionsPerIp),
    voiceMinutesPerSession: limitText(agent.voiceMinutesPerSession),
  });
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const set = (field: LimitField) => (value: string) => setValues((current) => ({ ...current, [field]: value }));

  function changes(): AgentChanges | null {
    const parsed: Partial<Record<LimitField, number | null>> = {};
    const problems: Record<string, string> = {};
    const read = (field: LimitField, empty?: string) => {
      const result = parseLimit(values[field], empty);
      if ("error" in result) problems[field] = result.error;
      else parsed[field] = result.value;
    };
    for (const { field } of [...monthlyFields, ...widgetShareFields]) read(field);
    for (const { field } of [...widgetLimitFields, ...voiceLimitFields]) read(field, "the default");
    setLocalErrors(problems);
    if (Object.keys(problems).length > 0) return null;
    const value = (field: LimitField) => parsed[field] ?? null;
    return {
      monthlyConversationLimit: value("monthlyConversationLimit"),
      monthlyTokenLimit: value("monthlyTokenLimit"),
      usageLimit: value("usageLimit"),
      monthlyVoiceMinutesLimit: value("monthlyVoiceMinutesLimit"),
      widgetMonthlyConversationLimit: value("widgetMonthlyConversationLimit"),
      widgetMonthlyTokenLimit: value("widgetMonthlyTokenLimit"),
      widgetConnectionsPerIp: value("widgetConnectionsPerIp"),
      widgetMessagesPerConnectionPerMinute: value("widgetMessagesPerConnectionPerMinute"),
      widgetMessagesPerIpPerMinute: value("widgetMessagesPerIpPerMinute"),
      widgetConversationsPerIpPerHour: value("widgetConversationsPerIpPerHour"),
      voiceSessionsPerIp: value("voiceSessionsPerIp"),
      voiceMinutesPerSession: value("voiceMinutesPerSession"),
    };
  }

  return (
    <SettingsForm agentId={agent.id} saveLabel="Save limits" savedText="Limits saved." changes={changes} localErrors={localErrors}>
      {(errors) => (
        <>
          <fieldset>
            <legend>Monthly limits</legend>
            {monthlyFields.map(({ field, label, hint }) => (
              <NumberField
                key={field}
                field={field}
                label={label}
                hint={hint}
                placeholder="Unlimited"
                value={values[field]}
                error={errors[field]}
                onChange={set(field)}
              />
            ))}
          </fieldset>
          <fieldset>
            <legend>Widget limits</legend>
            <span className="field-hint">
              Anyone visiting an allowed site can use the widget and SDK, so they have limits of their own (they never use the HTTP API's 30
              requests a minute).
            </span>
            {widgetLimitFields.map(({ field, label, what }) => (
              <NumberField
                key={field}
                field={field}
                label={label}
                hint={limitHint(WIDGET_LIMIT_SETTINGS[field], what)}
                placeholder={`Default (${WIDGET_LIMIT_SETTINGS[field].default})`}
                value={values[field]}
                error={errors[field]}
                onChange={set(field)}
              />
            ))}
            {voiceLimitFields.map(({ field, label, what }) => (
              <NumberField
                key={field}
                field={field}
                label={label}
                hint={limitHint(VOICE_LIMIT_SETTINGS[field], what)}
                placeholder={`Default (${VOICE_LIMIT_SETTINGS[field].default})`}
                value={values[field]}
                error={errors[field]}
                onChange={set(field)}
              />
            ))}
            {widgetShareFields.map(({ field, label, hint }) => (
              <NumberField
                key={field}
                field={field}
                label={label}
                hint={hint}
                placeholder="No cap"
                value={values[field]}
                error={errors[field]}
                onChange={set(field)}
              />
            ))}
          </fieldset>
        </>
      )}
    </SettingsForm>
  );
}

/** A whole-number setting (a limit or a quota): blank means the placeholder's meaning. */
function NumberField(props: {
  field: string;
  label: string;
  hint: string;
  placeholder: string;
  value: string;
  error: string | undefined;
  onChange(value: string): void;
}) {
  return (
    <TextField
      label={props.label}
      name={props.field}
      inputMode="numeric"
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
      error={props.error}
      hint={props.hint}
      placeholder={props.placeholder}
      autoComplete="off"
    />
  );
}
