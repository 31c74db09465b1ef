"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../errors.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { CheckboxField, TextField } from "../ui/fields.tsx";
import { PanelForm } from "../ui/form.tsx";
import { ActionStatus } from "../ui/status.tsx";

type Source = RouterOutputs["sources"]["list"][number];

export function SourceSettingsForm({ source }: { source: Source }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState(source.name);
  const [active, setActive] = useState(source.active);
  const update = useMutation(
    trpc.sources.update.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries(trpc.sources.list.queryFilter()),
          queryClient.invalidateQueries(trpc.articles.list.queryFilter()),
        ]),
    }),
  );
  const errors = fieldErrors(update.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate({ id: source.id, name, active });
  }

  return (
    <PanelForm onSubmit={submit} className="form" onChange={() => update.isSuccess && update.reset()}>
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
        hint="Articles of an inactive source are hidden from help centres and agents. Deactivated, not deleted: the articles stay, and turning it on brings them back. Delete the source at the bottom of this page to remove it for good."
      />
      <div className="form-actions">
        <ActionButton type="submit" variant="primary" pending={update.isPending}>
          Save source
        </ActionButton>
      </div>
      <ActionStatus error={update.error} success={update.isSuccess ? "Source saved." : undefined} />
    </PanelForm>
  );
}
