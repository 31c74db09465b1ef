"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useRef } from "react";
import { fieldErrors } from "../errors.ts";
import { useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { TextField } from "../ui/fields.tsx";
import { PanelForm } from "../ui/form.tsx";
import { ActionStatus } from "../ui/status.tsx";

export function CreateSourceForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const create = useMutation(
    trpc.sources.create.mutationOptions({
      onSuccess: async () => {
        formRef.current?.reset();
        await queryClient.invalidateQueries(trpc.sources.list.queryFilter());
      },
    }),
  );

  // Uncontrolled field read at submit: what was typed before hydration still counts.
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    create.mutate({ name: String(new FormData(event.currentTarget).get("name") ?? "") });
  }

  return (
    <PanelForm ref={formRef} onSubmit={submit} className="form-inline">
      <TextField
        label="New source name"
        name="name"
        onChange={() => {
          if (create.isSuccess) create.reset();
        }}
        error={fieldErrors(create.error).name}
        autoComplete="off"
      />
      <div className="form-actions">
        <ActionButton type="submit" variant="primary" pending={create.isPending} pendingLabel="Creating…">
          Create source
        </ActionButton>
      </div>
      <ActionStatus error={create.error} success={create.isSuccess ? "Source created." : undefined} />
    </PanelForm>
  );
}
