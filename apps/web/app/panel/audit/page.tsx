import type { Metadata } from "next";
import { AuditScreen } from "~/panel/audit/AuditScreen.tsx";
import "~/panel/audit/audit.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Audit log" };

export default function AuditPage() {
  return <AuditScreen />;
}
