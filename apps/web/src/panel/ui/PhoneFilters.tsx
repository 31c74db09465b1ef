"use client";
// A list page's filters: shown as they are on wider screens; on a phone behind a Filters button
// (naming how many are set), so the list starts near the top of the screen.

import { type ReactNode, useId, useState } from "react";

export function PhoneFilters({ active, children }: { /** How many filters are set. */ active: number; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="phone-filters" data-open={open || undefined}>
      <button
        type="button"
        className="btn btn-secondary phone-filters-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        {active > 0 ? `Filters (${active} set)` : "Filters"}
      </button>
      <div id={id} className="phone-filters-body">
        {children}
      </div>
    </div>
  );
}
