"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const sections = [
  { href: "/panel/agents", label: "Agents" },
  { href: "/panel/knowledge", label: "Knowledge base" },
  { href: "/panel/conversations", label: "Conversations" },
  { href: "/panel/usage", label: "Usage" },
  { href: "/panel/webhooks", label: "Webhooks" },
];

export function PanelNav({ email }: { email: string | null }) {
  const pathname = usePathname();
  return (
    <header className="panel-header">
      <div className="panel-header-inner">
        <Link href="/panel/agents" className="panel-brand">
          Parley
        </Link>
        <nav aria-label="Panel">
          <ul className="panel-nav">
            {sections.map((section) => {
              const current = pathname === section.href || pathname.startsWith(`${section.href}/`);
              return (
                <li key={section.href}>
                  <Link href={section.href} aria-current={current ? "page" : undefined}>
                    {section.label}
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
