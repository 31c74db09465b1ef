"use client";

import { helpPaths } from "@parley/core/browser";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { isNotFound } from "../errors.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { DeleteCard } from "../ui/DeleteCard.tsx";
import { EmptyState, Loading, QueryError } from "../ui/status.tsx";
import { TabList, TabPanel } from "../ui/Tabs.tsx";
import { AnswerSettings, ChannelSettings, GeneralSettings, LimitSettings } from "./AgentSettingsForm.tsx";
import { AgentStatusBadges } from "./AgentStatusBadges.tsx";
import { ApiKeyCard } from "./ApiKeyCard.tsx";
import { ApiRequestExample } from "./ApiRequestExample.tsx";
import { AGENT_TABS, type AgentTab, agentTabPath } from "./agent-tabs.ts";
import { BrandingForm } from "./BrandingForm.tsx";
import { LinkedSources } from "./LinkedSources.tsx";
import { EmbedSnippet, TestChat } from "./TryAgent.tsx";

type Agent = RouterOutputs["agents"]["get"];

/** `mayDelete`: the person may delete the agent (owners). `initialTab`: the page's `?tab=`. */
export function AgentScreen({ agentId, mayDelete, initialTab }: { agentId: string; mayDelete: boolean; initialTab: AgentTab }) {
  const trpc = useTRPC();
  const agent = useQuery(trpc.agents.get.queryOptions({ id: agentId }));

  const back = (
    <p className="breadcrumb">
      <Link href="/panel/agents">← Agents</Link>
    </p>
  );
  if (agent.isPending)
    return (
      <>
        {back}
        <Loading label="Loading agent…" />
      </>
    );
  if (agent.isError) {
    return (
      <>
        {back}
        {isNotFound(agent.error) ? (
          <EmptyState>Agent not found.</EmptyState>
        ) : (
          <QueryError error={agent.error} onRetry={() => agent.refetch()} />
        )}
      </>
    );
  }

  const data = agent.data;
  const encodedId = encodeURIComponent(data.id);
  return (
    <>
      {back}
      <div className="page-heading">
        <h1>{data.name}</h1>
        <AgentStatusBadges agent={data} />
      </div>
      <p className="muted">
        Agent ID <code>{data.id}</code> · <Link href={helpPaths.home(data.id)}>Help centre</Link> ·{" "}
        <Link href={`/panel/conversations?agent=${encodedId}`}>Conversations</Link>
      </p>
      <AgentTabs key={data.id} agent={data} mayDelete={mayDelete} initialTab={initialTab} />
    </>
  );
}

/**
 * The settings in tabs, one Save each. The selected tab is in the address (`?tab=`, replaced, not
 * pushed: Back leaves the page). A tab with edits not saved yet is marked, and leaving the page
 * then asks first; its edits stay while another tab is shown.
 */
function AgentTabs({ agent, mayDelete, initialTab }: { agent: Agent; mayDelete: boolean; initialTab: AgentTab }) {
  const tabs = AGENT_TABS.filter((tab) => tab.id !== "danger" || mayDelete);
  const [selected, setSelected] = useState<AgentTab>(tabs.some((tab) => tab.id === initialTab) ? initialTab : "general");
  // A link to another tab of this page (the checklist's, say) arrives as a new initialTab.
  useEffect(() => {
    if (initialTab !== "danger" || mayDelete) setSelected(initialTab);
  }, [initialTab, mayDelete]);
  const unsaved = useUnsavedTabs(String(agent.updatedAt));
  const scope = (tab: AgentTab, children: ReactNode) => (
    <EditScope ref={(element) => unsaved.register(tab, element)} onEdit={() => unsaved.edited(tab)} onSubmit={() => unsaved.submitted(tab)}>
      {children}
    </EditScope>
  );

  function select(tab: AgentTab) {
    setSelected(tab);
    // Next.js keeps its router in step with history.replaceState (no server round trip).
    window.history.replaceState(window.history.state, "", agentTabPath(agent.id, tab));
  }

  const dirtyTabs = tabs.filter((tab) => unsaved.tabs.has(tab.id) && tab.id !== selected);
  const panel = (id: AgentTab, children: ReactNode) => (
    <TabPanel key={id} prefix="agent" id={id} selected={selected === id}>
      {children}
    </TabPanel>
  );
  return (
    <>
      <TabList
        prefix="agent"
        label="Agent settings"
        tabs={tabs.map((tab) => ({ ...tab, unsaved: unsaved.tabs.has(tab.id) }))}
        selected={selected}
        onSelect={select}
      />
      <p role="status" className="tabs-unsaved-note">
        {dirtyTabs.length > 0 ? `Not saved yet: your changes on ${dirtyTabs.map((tab) => tab.label).join(", ")}.` : ""}
      </p>
      {panel(
        "general",
        <section aria-labelledby="agent-general-heading" className="card">
          <h2 id="agent-general-heading">General</h2>
          {scope("general", <GeneralSettings agent={agent} />)}
        </section>,
      )}
      {panel(
        "answers",
        <div className="grid-2">
          <section aria-labelledby="agent-answers-heading" className="card">
            <h2 id="agent-answers-heading">Answers</h2>
            {scope("answers", <AnswerSettings agent={agent} />)}
          </section>
          <div className="stack">
            <LinkedSources agentId={agent.id} />
            <TestChat agentId={agent.id} />
          </div>
        </div>,
      )}
      {panel(
        "look",
        <section aria-labelledby="branding-heading" className="card">
          <h2 id="branding-heading">Help centre &amp; widget</h2>
          {scope("look", <BrandingForm agent={agent} />)}
        </section>,
      )}
      {panel(
        "channels",
        <div className="grid-2">
          <section aria-labelledby="agent-channels-heading" className="card">
            <h2 id="agent-channels-heading">Channels</h2>
            {scope("channels", <ChannelSettings agent={agent} />)}
          </section>
          <EmbedSnippet agentId={agent.id} allowedOrigins={agent.allowedOrigins} />
        </div>,
      )}
      {panel(
        "limits",
        <section aria-labelledby="agent-limits-heading" className="card">
          <h2 id="agent-limits-heading">Limits</h2>
          {scope("limits", <LimitSettings agent={agent} />)}
        </section>,
      )}
      {panel(
        "api-key",
        <div className="grid-2">
          <ApiKeyCard agent={agent} onOpenChannels={() => select("channels")} />
          <ApiRequestExample agentId={agent.id} />
        </div>,
      )}
      {mayDelete ? panel("danger", <DeleteAgent agent={agent} />) : null}
    </>
  );
}

/**
 * Which tabs hold edits not saved yet: an input or change inside a tab's EditScope marks it; the
 * agent's next version (updatedAt moves once a save is stored) clears the tabs whose Save was
 * pressed, unless a field there is marked invalid (that Save was refused: nothing of it is stored).
 * Leaving the page while a tab is marked asks first.
 */
function useUnsavedTabs(version: string) {
  const [tabs, setTabs] = useState<ReadonlySet<AgentTab>>(new Set());
  /** Tabs whose Save was pressed, with the version they saved over. */
  const saving = useRef(new Map<AgentTab, string>());
  const scopes = useRef(new Map<AgentTab, HTMLElement>());

  useEffect(() => {
    const settled = [...saving.current].filter(([, over]) => over !== version).map(([tab]) => tab);
    if (settled.length === 0) return;
    for (const tab of settled) saving.current.delete(tab);
    const saved = settled.filter((tab) => !scopes.current.get(tab)?.querySelector('[aria-invalid="true"]'));
    setTabs((current) => new Set([...current].filter((tab) => !saved.includes(tab))));
  }, [version]);

  useEffect(() => {
    if (tabs.size === 0) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [tabs]);

  return {
    tabs,
    edited: (tab: AgentTab) => setTabs((current) => (current.has(tab) ? current : new Set([...current, tab]))),
    submitted: (tab: AgentTab) => saving.current.set(tab, version),
    register: (tab: AgentTab, element: HTMLElement | null) => {
      if (element) scopes.current.set(tab, element);
      else scopes.current.delete(tab);
    },
  };
}

/** Reports edits and Saves inside one tab's forms (events bubble from its fields and forms). */
function EditScope(props: { ref(element: HTMLDivElement | null): void; onEdit(): void; onSubmit(): void; children: ReactNode }) {
  return (
    <div ref={props.ref} onInput={props.onEdit} onChange={props.onEdit} onSubmit={props.onSubmit}>
      {props.children}
    </div>
  );
}

function DeleteAgent({ agent }: { agent: Agent }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const remove = useMutation(
    trpc.agents.delete.mutationOptions({
      onSuccess: async () => {
        router.push("/panel/agents");
        await queryClient.invalidateQueries(trpc.agents.list.queryFilter());
      },
    }),
  );
  return (
    <DeleteCard
      thing="agent"
      consequences={
        <p>
          Its API key stops working, its help centre answers 404, and its conversations are deleted with their messages, tracking events and
          usage (stored webhook events about them lose their data). Its sources and articles stay.
        </p>
      }
      pending={remove.isPending}
      error={remove.error}
      onDelete={() => remove.mutate({ id: agent.id })}
      onCancel={() => remove.reset()}
    />
  );
}
