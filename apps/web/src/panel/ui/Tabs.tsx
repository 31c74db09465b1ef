"use client";
// ARIA tabs (the WAI-ARIA tabs pattern, automatic activation): one tab stop for the list, the
// arrow keys, Home and End move between tabs and show each; the panels stay mounted while hidden,
// so what is typed in one tab survives a look at another. Where the row is wider than the screen it
// scrolls sideways (use-tab-row.ts): the selected tab in sight, a fade at the edge where more wait.

import { type KeyboardEvent, type ReactNode, useRef } from "react";
import { useTabRow } from "./use-tab-row.ts";
import "./tabs.css";

export interface TabItem<Id extends string> {
  id: Id;
  label: string;
  /** The tab holds unsaved edits: marked on the tab (seen and heard). */
  unsaved?: boolean;
}

export function tabId(prefix: string, id: string): string {
  return `${prefix}-tab-${id}`;
}

export function panelId(prefix: string, id: string): string {
  return `${prefix}-panel-${id}`;
}

export function TabList<Id extends string>(props: {
  /** Ids of the tabs and panels start with it. */
  prefix: string;
  label: string;
  tabs: Array<TabItem<Id>>;
  selected: Id;
  onSelect(id: Id): void;
}) {
  const list = useRef<HTMLDivElement>(null);
  const more = useTabRow(list, tabId(props.prefix, props.selected));

  function keyDown(event: KeyboardEvent<HTMLDivElement>) {
    const at = props.tabs.findIndex((tab) => tab.id === props.selected);
    const last = props.tabs.length - 1;
    const next =
      event.key === "ArrowRight"
        ? at === last
          ? 0
          : at + 1
        : event.key === "ArrowLeft"
          ? at === 0
            ? last
            : at - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    const tab = next === null ? undefined : props.tabs[next];
    if (!tab) return;
    event.preventDefault();
    props.onSelect(tab.id);
    list.current?.querySelector<HTMLElement>(`#${CSS.escape(tabId(props.prefix, tab.id))}`)?.focus();
  }

  return (
    <div className="tabs-row" data-more={more}>
      <div ref={list} role="tablist" aria-label={props.label} className="tabs" onKeyDown={keyDown}>
        {props.tabs.map((tab) => {
          const selected = tab.id === props.selected;
          return (
            <button
              key={tab.id}
              type="button"
              role="tab"
              id={tabId(props.prefix, tab.id)}
              aria-controls={panelId(props.prefix, tab.id)}
              aria-selected={selected}
              tabIndex={selected ? 0 : -1}
              className="tab"
              onClick={() => props.onSelect(tab.id)}
            >
              {tab.label}
              {tab.unsaved ? (
                <>
                  <span className="tab-unsaved" aria-hidden="true">
                    {" "}
                    •
                  </span>
                  <span className="visually-hidden"> (unsaved changes)</span>
                </>
              ) : null}
            </button>
          );
        })}
      </div>
    </div>
  );
}

/** A tab's panel: hidden (but mounted) unless its tab is selected. */
export function TabPanel(props: { prefix: string; id: string; selected: boolean; children: ReactNode }) {
  return (
    <div
      role="tabpanel"
      id={panelId(props.prefix, props.id)}
      aria-labelledby={tabId(props.prefix, props.id)}
      hidden={!props.selected}
      className="tab-panel"
      // The panel takes focus only when it has nothing focusable of its own (WAI-ARIA); ours all do.
    >
      {props.children}
    </div>
  );
}
