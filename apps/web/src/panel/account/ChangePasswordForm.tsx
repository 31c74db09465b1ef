"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useRef } from "react";
import { fieldErrors } from "../errors.ts";
import { useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { TextField } from "../ui/fields.tsx";
import { ActionStatus } from "../ui/status.tsx";

/** Changes one's password (the current one required); every other session of theirs ends. */
export function ChangePasswordForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const change = useMutation(
    trpc.account.changePassword.mutationOptions({
      onSuccess: async () => {
        formRef.current?.reset();
        await queryClient.invalidateQueries(trpc.account.sessions.queryFilter());
      },
    }),
  );
  const errors = fieldErrors(change.error);
  // A wrong current password is the server's check, shown next to that field.
  const wrongCurrent = change.error?.data?.code === "BAD_REQUEST" && !Object.keys(errors).length ? change.error.message : undefined;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    change.mutate({ currentPassword: String(fields.get("currentPassword") ?? ""), newPassword: String(fields.get("newPassword") ?? "") });
  }

  const ended = change.data?.endedSessions ?? 0;
  return (
    <form ref={formRef} onSubmit={submit} noValidate className="form">
      <TextField
        label="Current password"
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        error={errors.currentPassword ?? wrongCurrent}
      />
      <TextField
        label="New password"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters. Your other sessions end when you change it."
        error={errors.newPassword}
      />
      <div className="form-actions">
        <ActionButton type="submit" variant="primary" pending={change.isPending} pendingLabel="Changing…">
          Change password
        </ActionButton>
      </div>
      <ActionStatus
        error={wrongCurrent ? undefined : change.error}
        success={
          change.isSuccess ? `Password changed. ${ended === 1 ? "1 other session ended" : `${ended} other sessions ended`}.` : undefined
        }
      />
    </form>
  );
}
