"use client";

import { useQuery } from "@tanstack/react-query";
import { roleLabel } from "../people/roles.ts";
import { useTRPC } from "../trpc.ts";
import { ChangePasswordForm } from "./ChangePasswordForm.tsx";
import { SessionList } from "./SessionList.tsx";

export function AccountScreen() {
  const trpc = useTRPC();
  const account = useQuery(trpc.account.get.queryOptions());
  return (
    <>
      <div className="page-heading">
        <h1>Your account</h1>
      </div>
      {account.data ? (
        <section aria-labelledby="you-heading" className="card">
          <h2 id="you-heading">You</h2>
          <dl className="details">
            <div>
              <dt>Name</dt>
              <dd>{account.data.name || "—"}</dd>
            </div>
            <div>
              <dt>Email</dt>
              <dd>{account.data.email}</dd>
            </div>
            <div>
              <dt>Role</dt>
              <dd>{roleLabel(account.data.role)}</dd>
            </div>
          </dl>
        </section>
      ) : null}
      <section aria-labelledby="password-heading" className="card">
        <h2 id="password-heading">Change password</h2>
        <ChangePasswordForm />
      </section>
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Where you are signed in</h2>
        <SessionList />
      </section>
    </>
  );
}
