"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useInboxLive } from "../inbox/use-inbox-live.ts";
import { useTRPC } from "../trpc.ts";

/** A section of the panel the signed-in person may open (the server decides which, from their role). */
export interface NavSection {
  href: string;
  label: string;
}

const INBOX_PATH = "/panel/conversations";

/** Listens to the live inbox events: only mounted for people who may read the inbox. */
function InboxLive() {
  useInboxLive();
  return null;
}

/** Escalations nobody has taken yet, live (the count refetches on every inbox event). */
function WaitingCount() {
  const trpc = useTRPC();
  // Polling is the fallback while the live stream reconnects.
  const waiting = useQuery(trpc.conversations.waiting.queryOptions(undefined, { refetchInterval: 60_000 }));
  const count = waiting.data?.count ?? 0;
  if (count === 0) return null;
  return (
    <span className="nav-count" title={`${count} waiting for a person`}>
      {count}
      <span className="visually-hidden"> waiting for a person</span>
    </span>
  );
}

export function PanelNav({ email, sections, home }: { email: string | null; sections: NavSection[]; home: string }) {
  const pathname = usePathname();
  const inbox = sections.some((section) => section.href === INBOX_PATH);
  return (
    <header className="panel-header">
      <div className="panel-header-inner">
        {inbox ? <InboxLive /> : null}
        <Link href={home} className="panel-brand">
          Parley
        </Link>
        <nav aria-label="Panel">
          <ul className="panel-nav">
            {sections.map((section) => {
              // Home is current on its own page only; a section on any of its pages.
              const current = pathname === section.href || (section.href !== "/panel" && pathname.startsWith(`${section.href}/`));
              return (
                <li key={section.href}>
                  <Link href={section.href} aria-current={current ? "page" : undefined}>
                    {section.label}
                    {section.href === INBOX_PATH ? <WaitingCount /> : null}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="panel-account">
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
