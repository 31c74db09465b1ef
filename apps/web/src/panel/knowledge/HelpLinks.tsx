"use client";

import { helpPaths } from "@parley/core/browser";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { Loading } from "../ui/status.tsx";

type Article = RouterOutputs["articles"]["get"];

/** The public help-page address of the article, once per agent linked to its source. */
export function HelpLinks({ article }: { article: Article }) {
  const trpc = useTRPC();
  const sources = useQuery(trpc.sources.list.queryOptions());
  const agents = useQuery(trpc.agents.list.queryOptions());

  let body: ReactNode;
  if (sources.isPending || agents.isPending) body = <Loading />;
  else {
    const source = sources.data?.find((candidate) => candidate.id === article.sourceId);
    const linked = (agents.data ?? []).filter((agent) => source?.agentIds.includes(agent.id));
    body =
      linked.length === 0 ? (
        <p className="muted">Its source is not linked to any agent, so it has no help page yet.</p>
      ) : (
        <ul className="link-list">
          {linked.map((agent) => {
            const href = helpPaths.article(agent.id, article.slug);
            return (
              <li key={agent.id}>
                <a href={href} target="_blank" rel="noopener">
                  {href}
                </a>{" "}
                <span className="muted">
                  ({agent.name}
                  {agent.active ? "" : ", agent inactive"})
                </span>
              </li>
            );
          })}
        </ul>
      );
  }

  const visible = article.published && article.active;
  return (
    <section aria-labelledby="help-links-heading" className="card">
      <h2 id="help-links-heading">Help pages</h2>
      {visible ? null : <p className="notice">These pages show “Not found” until the article is published and active.</p>}
      {body}
    </section>
  );
}
