"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
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
