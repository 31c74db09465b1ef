// The control panel's operations on knowledge sources (the `sources` router of packages/api).
import { z } from "zod";
import { panelOperationsOver } from "../people/panel-operation.ts";
import type { PlatformContext } from "../platform/context.ts";
import { count, id, moment } from "../platform/panel-outputs.ts";
import { deleteByIdInput, deleteSource } from "./deletion.ts";
import {
  createSource,
  createSourceInput,
  listSources,
  setSourceAgents,
  setSourceAgentsInput,
  updateSource,
  updateSourceInput,
} from "./sources.ts";

export const sourceOutput = z.object({
  id,
  name: z.string(),
  active: z.boolean(),
  createdAt: moment,
  updatedAt: moment,
  articleCount: count,
  publishedCount: count,
  agentIds: z.array(id),
});

export const sourceListOutput = z.array(sourceOutput);
export const deletedSourceOutput = z.object({ articles: count });

const panel = panelOperationsOver<PlatformContext>();

export const sourceOperations = {
  list: panel.query({
    permission: "knowledge.read",
    output: sourceListOutput,
    run: ({ app, scope }) => listSources(app.db, scope.workspaceId),
  }),
  create: panel.mutation({
    permission: "knowledge.write",
    input: createSourceInput,
    output: sourceOutput,
    run: ({ app, scope }, input) => createSource(app.db, scope, input),
  }),
  update: panel.mutation({
    permission: "knowledge.write",
    input: updateSourceInput,
    output: sourceOutput,
    run: ({ app, scope }, input) => updateSource(app.db, scope, input),
  }),
  setAgents: panel.mutation({
    permission: "knowledge.write",
    input: setSourceAgentsInput,
    output: sourceOutput,
    run: ({ app, scope }, input) => setSourceAgents(app.db, scope, input),
  }),
  /** Deletes the source with its articles; linked agents lose it. */
  delete: panel.mutation({
    permission: "knowledge.write",
    input: deleteByIdInput,
    output: deletedSourceOutput,
    run: ({ app, scope }, input) => deleteSource(app.db, scope, input.id, app.now()),
  }),
};
