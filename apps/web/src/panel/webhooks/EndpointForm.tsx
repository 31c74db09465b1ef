"use client";

import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@parley/core/browser";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { errorCode, errorDetails, fieldErrors } from "../errors.ts";
import { useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { CheckboxField, FieldGroup, TextField } from "../ui/fields.tsx";
import { PanelForm } from "../ui/form.tsx";
import { ActionStatus, Loading, QueryError } from "../ui/status.tsx";

export interface EndpointFormValues {
  url: string;
  description: string;
  allAgents: boolean;
  agentIds: string[];
  eventTypes: WebhookEventType[];
}

const EMPTY: EndpointFormValues = { url: "", description: "", allAgents: true, agentIds: [], eventTypes: [...WEBHOOK_EVENT_TYPES] };

/**
 * The fields of an endpoint, for creating and editing. Validation is the server's (zod issues
 * shown next to their fields; a refused URL next to the URL field).
 */
export function EndpointForm({
  initial = EMPTY,
  submitLabel,
  pendingLabel,
  pending,
  error,
  success,
  onSubmit,
  onChange,
  urlHint,
}: {
  /** What the URL field accepts on this server (core's webhookUrlHint). */
  urlHint: string;
  initial?: EndpointFormValues;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  error: unknown;
  success?: string;
  onSubmit: (values: EndpointFormValues) => void;
  onChange?: () => void;
}) {
  const trpc = useTRPC();
  const agents = useQuery(trpc.agents.list.queryOptions());
  const [values, setValues] = useState<EndpointFormValues>(initial);
  const errors = fieldErrors(error);
  // A URL refused by the SSRF guard is a BAD_REQUEST without zod issues: show it at the URL.
  const urlRefused = errorCode(error) === "BAD_REQUEST" && Object.keys(errors).length === 0 && error instanceof Error;
  if (urlRefused) errors.url = errorDetails(error) ?? (error as Error).message;

  function update(change: Partial<EndpointFormValues>) {
    onChange?.();
    setValues((current) => ({ ...current, ...change }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit(values);
  }

  return (
    <PanelForm onSubmit={submit} className="form">
      <TextField
        label="Endpoint URL"
        name="url"
        type="url"
        value={values.url}
        onChange={(event) => update({ url: event.target.value })}
        error={errors.url}
        hint={urlHint}
        autoComplete="off"
        spellCheck={false}
        placeholder="https://example.com/webhooks/parley"
      />
      <TextField
        label="Description (optional)"
        name="description"
        value={values.description}
        onChange={(event) => update({ description: event.target.value })}
        error={errors.description}
        autoComplete="off"
      />
      <FieldGroup legend="Agents" className="webhook-fieldset" error={errors.agentIds}>
        <CheckboxField
          type="radio"
          name="agents"
          label="All agents, including agents created later"
          checked={values.allAgents}
          onChange={() => update({ allAgents: true })}
        />
        <CheckboxField
          type="radio"
          name="agents"
          label="Only these agents"
          checked={!values.allAgents}
          onChange={() => update({ allAgents: false })}
        />
        {values.allAgents ? null : agents.isPending ? (
          <Loading label="Loading agents…" />
        ) : agents.isError ? (
          <QueryError error={agents.error} onRetry={() => agents.refetch()} />
        ) : (
          <div className="webhook-choices">
            {agents.data.map((agent) => (
              <CheckboxField
                key={agent.id}
                label={agent.name}
                hint={agent.id}
                checked={values.agentIds.includes(agent.id)}
                onChange={(event) =>
                  update({
                    agentIds: event.target.checked ? [...values.agentIds, agent.id] : values.agentIds.filter((id) => id !== agent.id),
                  })
                }
              />
            ))}
          </div>
        )}
      </FieldGroup>
      <FieldGroup legend="Events" className="webhook-fieldset" error={errors.eventTypes}>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <CheckboxField
            key={type}
            label={<code>{type}</code>}
            hint={WEBHOOK_EVENT_DESCRIPTIONS[type]}
            checked={values.eventTypes.includes(type)}
            onChange={(event) =>
              update({
                eventTypes: event.target.checked ? [...values.eventTypes, type] : values.eventTypes.filter((item) => item !== type),
              })
            }
          />
        ))}
      </FieldGroup>
      <div className="form-actions">
        <ActionButton type="submit" variant="primary" pending={pending} pendingLabel={pendingLabel}>
          {submitLabel}
        </ActionButton>
      </div>
      <ActionStatus error={urlRefused ? undefined : error} success={success} />
    </PanelForm>
  );
}
