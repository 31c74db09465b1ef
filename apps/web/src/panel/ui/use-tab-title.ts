"use client";
// A browser tab title from data the page holds live: the conversation's visitor may give their name
// while it is open. (Next.js metadata kept what it read when the row's link was prefetched.)

import { useEffect } from "react";
import { countPrefix, PANEL_TITLE_SUFFIX, withoutCount } from "../tab-title.ts";

/**
 * Names the tab "<title> · Parley panel" while the page is open, keeping the inbox's count prefix.
 * Next.js writing the page's generic title later (its head streams in) is undone; leaving the page
 * puts back the title it found.
 */
export function usePanelTabTitle(title: string) {
  useEffect(() => {
    const wanted = `${title}${PANEL_TITLE_SUFFIX}`;
    const found = withoutCount(document.title);
    const path = window.location.pathname;
    const apply = () => {
      // A navigation away writes the next page's title: that one stays.
      if (window.location.pathname !== path || withoutCount(document.title) === wanted) return;
      document.title = `${countPrefix(document.title)}${wanted}`;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => {
      observer.disconnect();
      if (withoutCount(document.title) === wanted) document.title = `${countPrefix(document.title)}${found}`;
    };
  }, [title]);
}
