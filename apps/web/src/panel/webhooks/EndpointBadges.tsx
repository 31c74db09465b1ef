"use client";

import type { RouterOutputs } from "../trpc.ts";
import { Badge } from "../ui/status.tsx";

type Endpoint = RouterOutputs["webhooks"]["list"][number];

/** Enabled / disabled, and why Parley disabled it (410 Gone, 3 days failing), or failing now. */
export function EndpointBadges({ endpoint }: { endpoint: Endpoint }) {
  return (
    <span className="badges">
      {endpoint.enabled ? <Badge tone="good">Enabled</Badge> : <Badge tone="neutral">Disabled</Badge>}
      {endpoint.disabledReason === "gone" ? <Badge tone="bad">Gone (410)</Badge> : null}
      {endpoint.disabledReason === "failing" ? <Badge tone="bad">Disabled after 3 days failing</Badge> : null}
      {endpoint.enabled && endpoint.failingSince ? <Badge tone="warn">Failing</Badge> : null}
    </span>
  );
}
