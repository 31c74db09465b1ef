"use client";

import { useSession } from "next-auth/react";
import { InviteForm } from "./InviteForm.tsx";
import { PeopleList } from "./PeopleList.tsx";

export function PeopleScreen() {
  const { data: session } = useSession();
  return (
    <>
      <div className="page-heading">
        <h1>People</h1>
      </div>
      <section aria-labelledby="invite-heading" className="card">
        <h2 id="invite-heading">Invite a person</h2>
        <InviteForm />
      </section>
      <section aria-labelledby="people-heading">
        <h2 id="people-heading">Your team</h2>
        <PeopleList currentUserId={session?.user.id ?? ""} />
      </section>
    </>
  );
}
