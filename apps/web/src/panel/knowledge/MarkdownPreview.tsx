"use client";

import { useDeferredValue, useMemo } from "react";
import { renderMarkdownPreview } from "./markdown.ts";

export function MarkdownPreview({ markdown, labelledBy }: { markdown: string; labelledBy: string }) {
  // Deferred: typing stays responsive on long articles; the preview catches up.
  const deferred = useDeferredValue(markdown);
  const html = useMemo(() => renderMarkdownPreview(deferred), [deferred]);
  if (deferred.trim() === "") return <p className="muted markdown-preview">Nothing to preview yet.</p>;
  return (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdownPreview escapes raw HTML and unsafe URLs (see markdown.ts).
    <section className="markdown-preview prose" aria-labelledby={labelledBy} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
