"use client";

// The editor's preview. The server renders the draft (articles.preview, the same Markdown and
// sanitiser as the help page), so the browser holds no renderer or sanitiser of its own and shows
// exactly what visitors will see. A pause in typing sends the draft; the last preview stays on
// screen while the next one renders.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPCClient } from "../trpc.ts";
import { QueryError } from "../ui/status.tsx";

/** How long typing must pause before the draft is sent for a preview. */
const PREVIEW_DELAY_MS = 300;

export function MarkdownPreview({ markdown, labelledBy }: { markdown: string; labelledBy: string }) {
  const client = useTRPCClient();
  const [draft, setDraft] = useState(markdown);
  useEffect(() => {
    const timer = setTimeout(() => setDraft(markdown), PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [markdown]);
  const empty = draft.trim() === "";
  const preview = useQuery({
    queryKey: ["articles.preview", draft],
    queryFn: ({ signal }) => client.articles.preview.mutate({ content: draft }, { signal }),
    enabled: !empty,
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
  });
  if (empty) return <p className="muted markdown-preview">Nothing to preview yet.</p>;
  if (preview.isError) return <QueryError error={preview.error} onRetry={() => preview.refetch()} />;
  if (!preview.data) return <p className="muted markdown-preview">Rendering the preview…</p>;
  return (
    <section
      className="markdown-preview prose"
      aria-labelledby={labelledBy}
      aria-busy={preview.isFetching}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: HTML from the server's one Markdown sanitiser (@parley/core/markdown).
      dangerouslySetInnerHTML={{ __html: preview.data.html }}
    />
  );
}
