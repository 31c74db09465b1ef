"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { fieldErrors } from "../errors.ts";
import { useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { SelectField, TextField } from "../ui/fields.tsx";
import { OneTimeSecretDialog } from "../ui/OneTimeSecretDialog.tsx";
import { ActionStatus } from "../ui/status.tsx";
import { ROLE_OPTIONS } from "./roles.ts";

type Emailed = "sent" | "failed" | "off";

/** What the panel says about the email once the invitation exists. */
const EMAILED_STATUS: Record<Emailed, (email: string) => string> = {
  sent: (email) => `Invitation sent to ${email}.`,
  failed: (email) => `Invitation created, but the email to ${email} could not be sent: copy the link and send it yourself.`,
  off: () => "Invitation created.",
};

const EMAILED_WARNING: Record<Emailed, string> = {
  sent: "The link was emailed to the person. It is shown here once, in case you want to send it another way.",
  failed: "The email could not be sent. Copy this link now and send it to the person. It won't be shown again.",
  off: "Copy this link now and send it to the person. It won't be shown again.",
};

/**
 * Invites a person by email with a role. The one-time link is shown once, to copy; when SMTP is
 * configured it is also emailed, and the panel says whether that worked.
 */
export function InviteForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [link, setLink] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const invite = useMutation(
    trpc.people.invite.mutationOptions({
      onSuccess: async (created) => {
        setLink(created.link);
        formRef.current?.reset();
        await queryClient.invalidateQueries(trpc.people.list.queryFilter());
      },
    }),
  );
  const errors = fieldErrors(invite.error);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    invite.mutate({ email: String(fields.get("email") ?? ""), role: String(fields.get("role") ?? "support") as "support" });
  }

  return (
    <>
      <form ref={formRef} onSubmit={submit} noValidate className="form-inline">
        <TextField label="Email" name="email" type="email" autoComplete="off" error={errors.email} />
        <SelectField label="Role" name="role" defaultValue="support" error={errors.role}>
          {ROLE_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}: {option.description}
            </option>
          ))}
        </SelectField>
        <div className="form-actions">
          <ActionButton type="submit" variant="primary" pending={invite.isPending} pendingLabel="Inviting…">
            Create invitation
          </ActionButton>
        </div>
        <ActionStatus error={invite.error} success={invite.data ? EMAILED_STATUS[invite.data.emailed](invite.data.email) : undefined} />
      </form>
      <OneTimeSecretDialog
        value={link}
        title="Invitation link"
        label="Invitation link"
        fieldId="invitation-link"
        noun="link"
        warning={EMAILED_WARNING[invite.data?.emailed ?? "off"]}
        footer="The link works once and expires in 7 days. Anyone with the link can join with this role."
        onClose={() => setLink(null)}
      />
    </>
  );
}
