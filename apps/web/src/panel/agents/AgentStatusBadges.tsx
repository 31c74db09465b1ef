"use client";

import { Badge } from "../ui/status.tsx";

interface AgentStatus {
  active: boolean;
  httpApiEnabled: boolean;
  keyConfigured: boolean;
}

export function AgentStatusBadges({ agent }: { agent: AgentStatus }) {
  return (
    <span className="badges">
      {agent.active ? <Badge tone="good">Active</Badge> : <Badge tone="bad">Inactive</Badge>}
      {agent.httpApiEnabled ? <Badge tone="good">API enabled</Badge> : <Badge>API disabled</Badge>}
      {agent.keyConfigured ? <Badge tone="good">Key configured</Badge> : <Badge tone="warn">No key</Badge>}
    </span>
  );
}
