"use client";
// A row of tabs wider than the screen scrolls sideways instead of wrapping onto several rows. The
// selected tab is scrolled into sight (a link or a reload may open on the last one, and a window
// made narrower may hide it), and the row says on which side more tabs wait, for the fade drawn
// there (tabs.css).

import { type RefObject, useEffect, useRef, useState } from "react";

/** Where the row has tabs out of sight: "start", "end", "both" or "none". */
export type MoreTabs = "none" | "start" | "end" | "both";

/** The width of the fade (tabs.css): a tab scrolled into sight clears it. */
const FADE_PX = 32;

/** Scrolls the row (only the row: scrollIntoView would move the page too) to the tab's snap position. */
function reveal(row: HTMLElement, tabId: string) {
  const tab = row.querySelector<HTMLElement>(`#${CSS.escape(tabId)}`);
  if (!tab) return;
  const box = row.getBoundingClientRect();
  const at = tab.getBoundingClientRect();
  // Its start past the fade (tabs.css's scroll-padding); the browser keeps the scroll in range.
  if (at.left < box.left + FADE_PX || at.right > box.right - FADE_PX) row.scrollBy({ left: at.left - box.left - FADE_PX });
}

export function useTabRow(list: RefObject<HTMLElement | null>, selectedTabId: string): MoreTabs {
  const [more, setMore] = useState<MoreTabs>("none");
  const selected = useRef(selectedTabId);
  selected.current = selectedTabId;

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
    const resized = new ResizeObserver(() => {
      reveal(row, selected.current);
      update();
    });
    resized.observe(row);
    return () => {
      row.removeEventListener("scroll", update);
      resized.disconnect();
    };
  }, [list]);

  useEffect(() => {
    if (list.current) reveal(list.current, selectedTabId);
  }, [list, selectedTabId]);

  return more;
}
