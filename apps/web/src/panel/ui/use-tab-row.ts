"use client";
// A row of tabs wider than the screen scrolls sideways instead of wrapping onto several rows. The
// selected tab is scrolled into sight (a link or a reload may open on the last one), and the row
// says on which side more tabs wait, for the fade drawn there (tabs.css).

import { type RefObject, useEffect, useState } from "react";

/** Where the row has tabs out of sight: "start", "end", "both" or "none". */
export type MoreTabs = "none" | "start" | "end" | "both";

/** The width of the fade (tabs.css): a tab scrolled into sight clears it. */
const FADE_PX = 32;

export function useTabRow(list: RefObject<HTMLElement | null>, selectedTabId: string): MoreTabs {
  const [more, setMore] = useState<MoreTabs>("none");

  useEffect(() => {
    const row = list.current;
    if (!row) return;
    const update = () => {
      const start = row.scrollLeft > 1;
      const end = row.scrollLeft + row.clientWidth < row.scrollWidth - 1;
      setMore(start && end ? "both" : start ? "start" : end ? "end" : "none");
    };
    update();
    row.addEventListener("scroll", update, { passive: true });
    const resized = new ResizeObserver(update);
    resized.observe(row);
    return () => {
      row.removeEventListener("scroll", update);
      resized.disconnect();
    };
  }, [list]);

  useEffect(() => {
    const row = list.current;
    const tab = row?.querySelector<HTMLElement>(`#${CSS.escape(selectedTabId)}`);
    if (!row || !tab) return;
    // Only the row scrolls (scrollIntoView would move the page too), to the tab's snap position
    // (its start past the fade, tabs.css's scroll-padding); the browser keeps it in range.
    const box = row.getBoundingClientRect();
    const at = tab.getBoundingClientRect();
    if (at.left < box.left + FADE_PX || at.right > box.right - FADE_PX) row.scrollBy({ left: at.left - box.left - FADE_PX });
  }, [list, selectedTabId]);

  return more;
}
