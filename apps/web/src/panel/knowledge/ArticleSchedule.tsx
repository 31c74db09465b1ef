"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { errorDetails } from "../errors.ts";
import { formatDateTime } from "../format.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { TextField } from "../ui/fields.tsx";
import { PanelForm } from "../ui/form.tsx";
import { ActionStatus } from "../ui/status.tsx";

type Article = RouterOutputs["articles"]["get"];

/** A draft's publication at a time of the person's choosing (in their own time zone). */
export function ArticleSchedule({ article }: { article: Article }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [when, setWhen] = useState("");
  const schedule = useMutation(
    trpc.articles.schedule.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.articles.get.queryFilter({ id: article.id })),
    }),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    const time = new Date(when);
    if (Number.isNaN(time.getTime())) return;
    schedule.mutate({ id: article.id, publishAt: time.toISOString() });
  }

  return (
    <section aria-labelledby="article-schedule-heading" className="card">
      <h2 id="article-schedule-heading">Schedule</h2>
      {article.publishAt ? (
        <>
          <p>
            Publishes on <strong>{formatDateTime(article.publishAt)}</strong>.
          </p>
          <div className="button-row">
            <ActionButton pending={schedule.isPending} onClick={() => schedule.mutate({ id: article.id, publishAt: null })}>
              Cancel schedule
            </ActionButton>
          </div>
        </>
      ) : (
        <PanelForm onSubmit={submit} className="form">
          <TextField
            label="Publish at"
            name="publishAt"
            type="datetime-local"
            required
            value={when}
            onChange={(event) => setWhen(event.target.value)}
            error={errorDetails(schedule.error)}
            hint="Your time zone. The article stays a draft until then."
          />
          <div className="form-actions">
            <ActionButton type="submit" pending={schedule.isPending} disabled={!when}>
              Schedule
            </ActionButton>
          </div>
        </PanelForm>
      )}
      <ActionStatus error={errorDetails(schedule.error) ? undefined : schedule.error} />
    </section>
  );
}
