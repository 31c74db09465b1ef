"use client";
// A wide table's frame: when the table is wider than the screen (a phone), the frame says so:
// a visible line under it and shadows at the edges that hide columns, and for screen readers and
// keyboards a named, focusable scroll region (the arrow keys scroll it).

import { type ReactNode, useEffect, useRef, useState } from "react";

export function ScrollTable({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  const frame = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    const table = element.firstElementChild;
    if (table) observer.observe(table);
    return () => observer.disconnect();
  }, []);

  return (
    <>
      <div
        ref={frame}
        className={`table-scroll${className ? ` ${className}` : ""}`}
        data-overflows={overflows || undefined}
        {...(overflows ? { role: "region", "aria-label": `${label} (scrolls sideways)`, tabIndex: 0 } : {})}
      >
        {children}
      </div>
      {overflows ? (
        <p className="table-scroll-hint" aria-hidden="true">
          Scroll sideways for more columns →
        </p>
      ) : null}
    </>
  );
}
