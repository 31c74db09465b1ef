"use client";

import Link from "next/link";
import type { RouterOutputs } from "../trpc.ts";

type Steps = RouterOutputs["home"]["get"]["gettingStarted"];

const STEPS: Array<{ key: keyof Steps; title: string; href: string; how: string }> = [
  {
    key: "keyGenerated",
    title: "Generate an API key",
    href: "/panel/agents",
    how: "Open an agent and choose Generate key; your backend sends messages with it.",
  },
  {
    key: "articlePublished",
    title: "Publish an article",
    href: "/panel/knowledge",
    how: "The knowledge agent answers from published articles, and the help centre shows them.",
  },
  {
    key: "widgetEmbedded",
    title: "Embed the chat widget",
    href: "/panel/agents",
    how: "Add your site's origin in the agent's settings and paste the widget snippet; ticked once it starts a conversation.",
  },
  {
    key: "webhookAdded",
    title: "Add a webhook",
    href: "/panel/webhooks",
    how: "Parley tells your server about new conversations, messages and escalations.",
  },
];

export function setUpComplete(steps: Steps): boolean {
  return STEPS.every((step) => steps[step.key]);
}

/** The steps of a first integration, each ticked from what is stored (shown until all are done). */
export function GettingStartedChecklist({ steps }: { steps: Steps }) {
  const done = STEPS.filter((step) => steps[step.key]).length;
  return (
    <section aria-labelledby="home-start-heading" className="card">
      <h2 id="home-start-heading">Getting started</h2>
      <p className="muted">
        {done} of {STEPS.length} done
      </p>
      <ol className="checklist">
        {STEPS.map((step) => (
          <li key={step.key} className={steps[step.key] ? "checklist-done" : undefined}>
            <span className="checklist-mark" aria-hidden="true">
              {steps[step.key] ? "✓" : ""}
            </span>
            <span>
              <Link href={step.href}>{step.title}</Link>
              <span className="visually-hidden">{steps[step.key] ? " (done)" : " (to do)"}</span>
              <span className="field-hint checklist-how">{step.how}</span>
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
