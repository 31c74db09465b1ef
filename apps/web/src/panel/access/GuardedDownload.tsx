"use client";

// Download links whose refusal is said in place. A plain link's 403 would only fail in the
// browser's download bar, so a click asks the server's permission map afresh first (the role may
// have changed since the page loaded) and, when it no longer allows the download, says so here
// instead of the links. Shown only to people whose role holds the permission.
import { type Permission, refusalOf } from "@parley/core/browser";
import { type ReactNode, useState } from "react";
import { useTRPCClient } from "../trpc.ts";
import { useCan } from "./permissions.tsx";

export interface DownloadLink {
  href: string;
  label: ReactNode;
  className?: string;
}

export function GuardedDownloads({ permission, label, links }: { permission: Permission; label?: ReactNode; links: DownloadLink[] }) {
  const can = useCan();
  const client = useTRPCClient();
  const [refusal, setRefusal] = useState<string | null>(null);
  if (refusal) {
    return (
      <span role="alert" className="status-error">
        {refusal}
      </span>
    );
  }
  if (!can(permission)) return null;
  const download = async (href: string) => {
    let allowed = true;
    try {
      allowed = (await client.account.permissions.query())[permission] === true;
    } catch {
      // The check itself failed (offline, signed out): the browser's own attempt reports that.
    }
    if (!allowed) {
      setRefusal(refusalOf(permission));
      return;
    }
    const link = document.createElement("a");
    link.href = href;
    link.download = "";
    link.click();
  };
  return (
    <>
      {label}
      {links.map((link) => (
        <a
          key={link.href}
          href={link.href}
          className={link.className}
          download
          onClick={(event) => {
            event.preventDefault();
            void download(link.href);
          }}
        >
          {link.label}
        </a>
      ))}
    </>
  );
}
