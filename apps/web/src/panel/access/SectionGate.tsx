"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";

/**
 * Shows a page only when the person's role opens its section; otherwise a clear "no access" state
 * (the page's queries never run, and the server would refuse them with 403 anyway). The sections
 * come from the server (core's table, for the person's role at this request).
 */
export function SectionGate({
  allowed,
  all,
  home,
  children,
}: {
  /** Paths of the sections this person may open. */
  allowed: string[];
  /** Paths of every section of the panel. */
  all: string[];
  home: string;
  children: ReactNode;
}) {
  const pathname = usePathname();
  const section = all.find((path) => pathname === path || pathname.startsWith(`${path}/`));
  if (section === undefined || allowed.includes(section)) return children;
  return <NoAccess home={home} />;
}

export function NoAccess({ home }: { home: string }) {
  return (
    <section className="card no-access" aria-labelledby="no-access-heading">
      <h1 id="no-access-heading">You do not have access to this page</h1>
      <p>Your role does not include this part of the panel. If you need it, ask an owner of the workspace to change your role.</p>
      <p>
        <Link href={home}>Go to your start page</Link>
      </p>
    </section>
  );
}
