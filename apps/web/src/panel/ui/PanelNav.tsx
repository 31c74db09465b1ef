"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import { AlertsControl, InboxAttention, NavQueues, TitleCount } from "../inbox/attention.tsx";
import { useInboxLive } from "../inbox/use-inbox-live.ts";

/** A section of the panel the signed-in person may open (the server decides which, from their role). */
export interface NavSection {
  href: string;
  label: string;
}

const INBOX_PATH = "/panel/conversations";

/**
 * Listens to the live inbox events, keeps the title's count and shows the alerts: only mounted for
 * people who may read the inbox.
 */
function InboxLive() {
  useInboxLive();
  return (
    <>
      <TitleCount />
      <InboxAttention />
    </>
  );
}

export function PanelNav({ email, sections, home }: { email: string | null; sections: NavSection[]; home: string }) {
  const pathname = usePathname();
  const inbox = sections.some((section) => section.href === INBOX_PATH);
  // On a phone the sections and the account links fold behind a Menu button (small-screens.css);
  // following a link folds them again.
  const [menuOpen, setMenuOpen] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page closes the menu
  useEffect(() => setMenuOpen(false), [pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    const close = (event: KeyboardEvent) => {
      if (event.key === "Escape") setMenuOpen(false);
    };
    document.addEventListener("keydown", close);
    return () => document.removeEventListener("keydown", close);
  }, [menuOpen]);
  return (
    <header className="panel-header" data-menu-open={menuOpen || undefined}>
      <div className="panel-header-inner">
        {inbox ? <InboxLive /> : null}
        <Link href={home} className="panel-brand">
          Parley
        </Link>
        <button
          type="button"
          className="btn btn-secondary panel-menu-button"
          aria-expanded={menuOpen}
          aria-controls="panel-menu-sections"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <span aria-hidden="true">☰</span> Menu
        </button>
        <nav aria-label="Panel" id="panel-menu-sections" className="panel-nav-wrap">
          <ul className="panel-nav">
            {sections.map((section) => {
              // Home is current on its own page only; a section on any of its pages.
              const current = pathname === section.href || (section.href !== "/panel" && pathname.startsWith(`${section.href}/`));
              return (
                <li key={section.href}>
                  <Link href={section.href} aria-current={current ? "page" : undefined}>
                    {section.label}
                  </Link>
                  {section.href === INBOX_PATH ? <NavQueues /> : null}
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="panel-account">
          {inbox ? <AlertsControl /> : null}
          {email ? <span className="muted panel-email">{email}</span> : null}
          <Link href="/panel/account" aria-current={pathname === "/panel/account" ? "page" : undefined}>
            Account
          </Link>
          <Link href="/signout">Sign out</Link>
        </div>
      </div>
    </header>
  );
}
