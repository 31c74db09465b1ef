"use client";

import { AgentList } from "./AgentList.tsx";
import { CreateAgentForm } from "./CreateAgentForm.tsx";

export function AgentsScreen() {
  return (
    <>
      <div className="page-heading">
        <h1>Agents</h1>
      </div>
      <section aria-labelledby="create-agent-heading" className="card">
        <h2 id="create-agent-heading">Create an agent</h2>
        <CreateAgentForm />
      </section>
      <section aria-labelledby="agent-list-heading">
        <h2 id="agent-list-heading">Your agents</h2>
        <AgentList />
      </section>
    </>
  );
}
