"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import type { FormEvent } from "react";
import { errorCode, fieldErrors } from "../errors.ts";
import { useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { TextField } from "../ui/fields.tsx";
import { PanelForm } from "../ui/form.tsx";
import { ActionStatus } from "../ui/status.tsx";

/**
 * Validation is the server's zod schema (one rule, one place): the form has noValidate and shows
 * the returned issues next to their fields.
 */
export function CreateAgentForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const create = useMutation(
    trpc.agents.create.mutationOptions({
      onSuccess: async (agent) => {
        await queryClient.invalidateQueries(trpc.agents.list.queryFilter());
        router.push(`/panel/agents/${encodeURIComponent(agent.id)}`);
      },
    }),
  );
  const errors = fieldErrors(create.error);
  // A taken id is a conflict, not a zod issue, but it belongs next to the id field all the same.
  const idTaken = errorCode(create.error) === "CONFLICT";
  if (idTaken && create.error) errors.id = create.error.message;

  // Uncontrolled fields read at submit: what was typed before hydration still counts.
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const name = String(fields.get("name") ?? "");
    const trimmedId = String(fields.get("id") ?? "").trim();
    create.mutate(trimmedId ? { name, id: trimmedId } : { name });
  }

  return (
    <PanelForm onSubmit={submit} className="form-inline">
      <TextField label="Name" name="name" error={errors.name} autoComplete="off" />
      <TextField
        label="Agent ID (optional)"
        name="id"
        error={errors.id}
        hint="Appears in API and help-centre URLs: lower-case letters, digits and dashes. Generated when left empty."
        autoComplete="off"
        spellCheck={false}
      />
      <div className="form-actions">
        <ActionButton type="submit" variant="primary" pending={create.isPending} pendingLabel="Creating…">
          Create agent
        </ActionButton>
      </div>
      <ActionStatus error={idTaken ? undefined : create.error} success={create.isSuccess ? "Agent created." : undefined} />
    </PanelForm>
  );
}
