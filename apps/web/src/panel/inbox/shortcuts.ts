"use client";

// Single-key shortcuts of the inbox (j/k, r, e), ignored while the person types in a field or holds
// a modifier, so they never steal a letter from a reply.
import { useEffect, useRef } from "react";

export type ShortcutMap = Partial<Record<string, () => void>>;

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

export function useShortcuts(shortcuts: ShortcutMap): void {
  const current = useRef(shortcuts);
  current.current = shortcuts;
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      const action = current.current[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
}
