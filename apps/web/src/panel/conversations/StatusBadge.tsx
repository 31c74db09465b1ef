"use client";

import { Badge } from "../ui/status.tsx";

export function StatusBadge({ status }: { status: string }) {
  return status === "escalated" ? <Badge tone="warn">Escalated</Badge> : <Badge tone="good">Active</Badge>;
}
