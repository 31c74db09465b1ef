"use client";

import Link from "next/link";
import { agentTabPath } from "../agents/agent-tabs.ts";
import type { RouterOutputs } from "../trpc.ts";

type Checklist = RouterOutputs["home"]["get"]["gettingStarted"];
type StepKey = Exclude<keyof Checklist, "agentId">;

/** A step's link: the agent's own tab when there is an agent (`agentTab`), else the section. */
const STEPS: Array<{ key: StepKey; title: string; href: string; agentTab?: "api-key" | "channels"; how: string }> = [
  {
    key: "keyGenerated",
    title: "Generate an API key",
    href: "/panel/agents",
    agentTab: "api-key",
    how: "Opens the agent's key card: choose Generate key, then paste the ready-made curl command to send a first message from your terminal.",
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
    agentTab: "channels",
    how: "Add your site's origin in the agent's Channels tab and paste the widget snippet there; ticked once the widget runs on your site (the help centre does not count).",
  },
  {
    key: "webhookAdded",
    title: "Add a webhook",
    href: "/panel/webhooks",
    how: "Parley tells your server about new conversations, messages and escalations.",
  },
];

export function setUpComplete(steps: Checklist): boolean {
  return STEPS.every((step) => steps[step.key]);
}

/** The steps of a first integration, each ticked from what is stored (shown until all are done). */
export function GettingStartedChecklist({ steps }: { steps: Checklist }) {
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
              <Link href={step.agentTab && steps.agentId ? agentTabPath(steps.agentId, step.agentTab) : step.href}>{step.title}</Link>
              <span className="visually-hidden">{steps[step.key] ? " (done)" : " (to do)"}</span>
              <span className="field-hint checklist-how">{step.how}</span>
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
