"use client";

import { DailyUsage } from "./DailyUsage.tsx";
import { UsageSummary } from "./UsageSummary.tsx";

export function UsageScreen() {
  return (
    <>
      <div className="page-heading">
        <h1>Usage</h1>
      </div>
      <UsageSummary />
      <DailyUsage />
    </>
  );
}
