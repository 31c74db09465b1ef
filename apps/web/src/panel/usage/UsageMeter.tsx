"use client";

import { formatNumber } from "../format.ts";

/**
 * One counter against its limit. The sentence carries the information; the bar only echoes it.
 * `reached`: what happens at the limit (by default, requests are refused with 402).
 */
export function UsageMeter({
  label,
  used,
  limit,
  reached = "requests get 402",
}: {
  label: string;
  used: number;
  limit: number | null;
  reached?: string;
}) {
  if (limit === null) {
    return (
      <div className="meter">
        <p className="meter-text">
          <strong>{label}</strong>: {formatNumber(used)} <span className="muted">(no limit)</span>
        </p>
      </div>
    );
  }
  const ratio = limit === 0 ? 1 : used / limit;
  const percent = Math.round(ratio * 100);
  const tone = ratio >= 1 ? "meter-over" : ratio >= 0.8 ? "meter-warn" : "meter-ok";
  return (
    <div className={`meter ${tone}`}>
      <p className="meter-text">
        <strong>{label}</strong>: {formatNumber(used)} of {formatNumber(limit)} ({percent}%)
        {ratio >= 1 ? <span className="meter-flag"> — limit reached, {reached}</span> : null}
      </p>
      <div className="meter-track" aria-hidden="true">
        <div className="meter-fill" style={{ width: `${Math.min(100, percent)}%` }} />
      </div>
    </div>
  );
}
