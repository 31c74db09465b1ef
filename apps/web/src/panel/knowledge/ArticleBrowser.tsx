"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useDeferredValue, useState } from "react";
import { useTRPC } from "../trpc.ts";
import { SelectField, TextField } from "../ui/fields.tsx";
import { PhoneFilters } from "../ui/PhoneFilters.tsx";
import { ArticleList } from "./ArticleList.tsx";

/** Search across sources, or within one when `sourceId` is fixed (the source page). */
export function ArticleBrowser({ sourceId }: { sourceId?: string }) {
  const trpc = useTRPC();
  const sources = useQuery(trpc.sources.list.queryOptions());
  const [query, setQuery] = useState("");
  const [sourceFilter, setSourceFilter] = useState("");
  const deferredQuery = useDeferredValue(query.trim());
  const effectiveSource = sourceId ?? (sourceFilter || undefined);
  const newHref = effectiveSource
    ? `/panel/knowledge/articles/new?source=${encodeURIComponent(effectiveSource)}`
    : "/panel/knowledge/articles/new";

  return (
    <div className="stack">
      <div className="toolbar">
        <search className="form-inline">
          <TextField
            label="Search articles"
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            maxLength={100}
          />
          {sourceId ? null : (
            <PhoneFilters active={sourceFilter ? 1 : 0}>
              <SelectField label="Source" value={sourceFilter} onChange={(event) => setSourceFilter(event.target.value)}>
                <option value="">All sources</option>
                {(sources.data ?? []).map((source) => (
                  <option key={source.id} value={source.id}>
                    {source.name}
                  </option>
                ))}
              </SelectField>
            </PhoneFilters>
          )}
        </search>
        {sources.data && sources.data.length > 0 ? (
          <Link href={newHref} className="btn btn-primary">
            New article
          </Link>
        ) : null}
      </div>
      <ArticleList sourceId={effectiveSource} query={deferredQuery || undefined} />
    </div>
  );
}
