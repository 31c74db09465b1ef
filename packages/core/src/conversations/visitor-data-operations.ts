// Erasing a visitor's data from the panel (the `visitorData` router of packages/api; the export is
// the session route GET /api/panel/visitor-data/export).
import { z } from "zod";
import { panelOperationsOver } from "../people/panel-operation.ts";
import { count } from "../platform/panel-outputs.ts";
import type { ConversationContext } from "./context.ts";
import { eraseVisitorData, eraseVisitorInput } from "./visitor-data.ts";

export const erasedVisitorOutput = z.object({ conversations: count });

const panel = panelOperationsOver<ConversationContext>();

export const visitorDataOperations = {
  /** Erases one conversation's visitor data, or every conversation of an email address (typed confirmation). */
  erase: panel.mutation({
    permission: "visitorData.manage",
    input: eraseVisitorInput,
    output: erasedVisitorOutput,
    run: ({ app, scope }, input) => eraseVisitorData(app, scope, input),
  }),
};
