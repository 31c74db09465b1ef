"use client";

// The panel's first page: what needs a person now, then how the agents are doing, and (until
// everything is set up) the steps of a first integration.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc.ts";
import { Loading, QueryError } from "../ui/status.tsx";
import { AgentActivityTable } from "./AgentActivityTable.tsx";
import { GettingStartedChecklist, setUpComplete } from "./GettingStartedChecklist.tsx";
import { NearQuotaList } from "./NearQuotaList.tsx";
import { RatingsSummary } from "./RatingsSummary.tsx";
import { WaitingList } from "./WaitingList.tsx";

export function HomeScreen() {
  const trpc = useTRPC();
  // The live inbox stream refreshes the waiting count in the navigation; this page polls gently and reads afresh on every visit.
  const home = useQuery(trpc.home.get.queryOptions(undefined, { refetchInterval: 60_000, refetchOnMount: "always" }));

  return (
    <>
      <div className="page-heading">
        <h1>Home</h1>
      </div>
      {home.isPending ? <Loading label="Loading the overview…" /> : null}
      {home.isError ? <QueryError error={home.error} onRetry={() => home.refetch()} /> : null}
      {home.data ? (
        <>
          {/* Escalations come first when there are any; otherwise the next setup step does. */}
          {home.data.waiting.count > 0 ? <WaitingList waiting={home.data.waiting} /> : null}
          {setUpComplete(home.data.gettingStarted) ? null : <GettingStartedChecklist steps={home.data.gettingStarted} />}
          {home.data.waiting.count > 0 ? null : <WaitingList waiting={home.data.waiting} />}
          <AgentActivityTable activity={home.data.activity} unanswered={home.data.unansweredThisWeek} />
          <RatingsSummary ratings={home.data.ratingsThisWeek} />
          <NearQuotaList nearQuota={home.data.nearQuota} />
        </>
      ) : null}
    </>
  );
}
