"use client";

import { Badge } from "../ui/status.tsx";

export function StatusBadge({ status }: { status: string }) {
  if (status === "escalated") return <Badge tone="warn">Escalated</Badge>;
  if (status === "resolved") return <Badge>Resolved</Badge>;
  return <Badge tone="good">Active</Badge>;
}
