"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useInboxLive } from "../inbox/use-inbox-live.ts";
import { useTRPC } from "../trpc.ts";

const sections = [
  { href: "/panel", label: "Home" },
  { href: "/panel/agents", label: "Agents" },
  { href: "/panel/knowledge", label: "Knowledge base" },
  { href: "/panel/conversations", label: "Conversations" },
  { href: "/panel/usage", label: "Usage" },
  { href: "/panel/webhooks", label: "Webhooks" },
];

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

export function PanelNav({ email }: { email: string | null }) {
  const pathname = usePathname();
  useInboxLive();
  return (
    <header className="panel-header">
      <div className="panel-header-inner">
        <Link href="/panel" className="panel-brand">
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
                    {section.href === "/panel/conversations" ? <WaitingCount /> : null}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="panel-account">
          {email ? <span className="muted panel-email">{email}</span> : null}
          <Link href="/signout">Sign out</Link>
        </div>
      </div>
    </header>
  );
}
