"use client";

// "Import articles" on a source's page: choose what to import, upload it (or paste URLs), then
// watch the worker's progress and read the report item by item.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { SelectField, TextAreaField, TextField } from "../ui/fields.tsx";
import { PanelForm } from "../ui/form.tsx";
import { ActionStatus, Badge } from "../ui/status.tsx";

type ImportJob = RouterOutputs["imports"]["list"][number];
type Kind = ImportJob["kind"];

const KINDS: Array<{ value: Kind; label: string; accept?: string; hint: string }> = [
  {
    value: "markdown_zip",
    label: "Markdown files (.zip)",
    accept: ".zip,application/zip",
    hint: "A .zip of .md files. Front matter may set title, slug and published; the file name gives the slug otherwise. Up to 50 MB and 20,000 files.",
  },
  {
    value: "urls",
    label: "Web pages (URLs or a sitemap)",
    hint: "One https:// URL per line, or the URL of a sitemap.xml. Up to 1,000 pages.",
  },
  {
    value: "zendesk",
    label: "Zendesk Help Center export (JSON)",
    accept: ".json,application/json",
    hint: 'The articles list: {"articles": [...]}.',
  },
  {
    value: "intercom",
    label: "Intercom articles export (JSON)",
    accept: ".json,application/json",
    hint: 'The articles list: {"type": "list", "data": [...]}.',
  },
];

const STATUS_LABEL: Record<ImportJob["status"], string> = {
  queued: "Waiting to start",
  running: "Importing…",
  done: "Done",
  failed: "Failed",
};
const STATUS_TONE = { queued: "neutral", running: "warn", done: "good", failed: "bad" } as const;

async function upload(sourceId: string, kind: Kind, body: Blob | string): Promise<{ id: string }> {
  const response = await fetch(`/api/panel/imports?${new URLSearchParams({ sourceId, kind })}`, {
    method: "POST",
    body,
    headers: { "content-type": typeof body === "string" ? "text/plain; charset=utf-8" : "application/octet-stream" },
  });
  const json = (await response.json().catch(() => null)) as { data?: { id: string }; error?: string; details?: string } | null;
  if (!response.ok || !json?.data)
    throw new Error([json?.error ?? `The upload failed (${response.status})`, json?.details].filter(Boolean).join(": "));
  return json.data;
}

export function ImportArticles({ sourceId }: { sourceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<Kind>("markdown_zip");
  const [file, setFile] = useState<File | null>(null);
  const [urls, setUrls] = useState("");
  const jobs = useQuery({
    ...trpc.imports.list.queryOptions({ sourceId }),
    refetchInterval: (query) => (query.state.data?.some((job) => job.status === "queued" || job.status === "running") ? 1000 : false),
  });
  const start = useMutation({
    mutationFn: () => {
      if (kind === "urls") return upload(sourceId, kind, urls);
      if (!file) throw new Error("Choose a file to import.");
      return upload(sourceId, kind, file);
    },
    onSuccess: () => {
      setFile(null);
      void queryClient.invalidateQueries({ queryKey: trpc.imports.list.queryKey({ sourceId }) });
    },
  });
  const chosen = KINDS.find((entry) => entry.value === kind) ?? KINDS[0]!;
  const busy = jobs.data?.some((job) => job.status === "queued" || job.status === "running") ?? false;
  const newest = jobs.data?.[0];
  const finishedId = newest && (newest.status === "done" || newest.status === "failed") ? newest.id : null;
  useEffect(() => {
    // The articles and counts changed: refresh them when an import ends.
    if (!finishedId) return;
    void queryClient.invalidateQueries({ queryKey: trpc.articles.list.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.sources.list.queryKey() });
  }, [finishedId, queryClient, trpc]);

  function submit(event: FormEvent) {
    event.preventDefault();
    start.mutate();
  }

  return (
    <section aria-labelledby="import-heading" className="card">
      <h2 id="import-heading">Import articles</h2>
      <PanelForm onSubmit={submit} className="form">
        <SelectField label="What to import" name="kind" value={kind} onChange={(event) => setKind(event.target.value as Kind)}>
          {KINDS.map((entry) => (
            <option key={entry.value} value={entry.value}>
              {entry.label}
            </option>
          ))}
        </SelectField>
        {kind === "urls" ? (
          <TextAreaField
            label="URLs"
            name="urls"
            rows={4}
            className="mono"
            value={urls}
            onChange={(event) => setUrls(event.target.value)}
            hint={chosen.hint}
          />
        ) : (
          <TextField
            key={kind}
            label="File"
            name="file"
            type="file"
            accept={chosen.accept}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            hint={chosen.hint}
          />
        )}
        <p className="muted">Re-importing updates the articles it finds again (by slug or page URL) instead of adding copies.</p>
        <div className="form-actions">
          <ActionButton type="submit" variant="primary" pending={start.isPending} pendingLabel="Uploading…" disabled={busy}>
            Start import
          </ActionButton>
        </div>
        <ActionStatus error={start.error} success={start.isSuccess ? "Import started: it runs in the background." : undefined} />
      </PanelForm>
      {jobs.data && jobs.data.length > 0 ? (
        <ul className="import-jobs" aria-label="Recent imports">
          {jobs.data.map((job) => (
            <ImportJobRow key={job.id} job={job} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function ImportJobRow({ job }: { job: ImportJob }) {
  const [open, setOpen] = useState(false);
  const label = KINDS.find((entry) => entry.value === job.kind)?.label ?? job.kind;
  const active = job.status === "queued" || job.status === "running";
  return (
    <li className="import-job">
      <div className="import-job-head">
        <strong>{label}</strong> <Badge tone={STATUS_TONE[job.status]}>{STATUS_LABEL[job.status]}</Badge>
      </div>
      {active ? (
        <p role="status">
          {job.processed} items processed
          <progress aria-label="Import progress" />
        </p>
      ) : null}
      <p className="muted">
        {job.created} created · {job.updated} updated · {job.skipped} skipped · {job.failed} failed
      </p>
      {job.draftNote ? <p>{withCode(job.draftNote)}</p> : null}
      {job.error ? <p className="status-error">{job.error}</p> : null}
      {active ? null : (
        <details onToggle={(event) => setOpen(event.currentTarget.open)}>
          <summary>Report</summary>
          {open ? <ImportReport id={job.id} /> : null}
        </details>
      )}
    </li>
  );
}

/** Text with `backquoted` parts shown as code (what to write in a file). */
function withCode(text: string) {
  // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed sentence
  return text.split("`").map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part));
}

function ImportReport({ id }: { id: string }) {
  const trpc = useTRPC();
  const job = useQuery(trpc.imports.get.queryOptions({ id }));
  if (!job.data) return <p className="muted">Loading the report…</p>;
  if (job.data.report.length === 0) return <p className="muted">Nothing was found to import.</p>;
  return (
    <table className="import-report">
      <thead>
        <tr>
          <th scope="col">Item</th>
          <th scope="col">Result</th>
          <th scope="col">Reason</th>
        </tr>
      </thead>
      <tbody>
        {job.data.report.map((entry, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the report is fixed once the import ended; an item may repeat
          <tr key={index}>
            <td className="mono">{entry.item}</td>
            <td>{entry.outcome}</td>
            <td>{entry.reason ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
