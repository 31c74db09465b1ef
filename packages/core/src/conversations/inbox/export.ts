// Exporting conversations with the inbox's filters, as CSV (one row per message) or JSON
// transcripts, streamed a page at a time so that memory stays flat however many there are.
// Conversations are walked newest first by when they started, a key that never changes, so one
// that changes during the export is neither missed nor written twice. Internal notes are the
// team's working notes, not the transcript: they are not exported.
import type { Database, Prisma } from "@parley/db";
import { stringify } from "csv-stringify/sync";
import { z } from "zod";
import { recordAudit } from "../../people/audit.ts";
import { assertMayCall } from "../../people/permissions.ts";
import type { AdminScope } from "../../people/scope.ts";
import { teamMemberName } from "../../people/team.ts";
import { AppError } from "../../platform/errors.ts";
import { enforceRateLimit } from "../../platform/ratelimit/index.ts";
import type { HttpResult } from "../../platform/results.ts";
import { storableQuery } from "../../platform/text.ts";
import type { ConversationContext } from "../context.ts";
import { INBOX_EXPORT_MAX_CONVERSATIONS, INBOX_EXPORT_PAGE, INBOX_EXPORTS_PER_HOUR } from "../limits.ts";
import { conversationSelect } from "./conversation-rows.ts";
import { assigneeIdOf, filterWhere, listConversationsInput } from "./conversations.ts";
import { searchConversationIds } from "./search.ts";

export const exportConversationsInput = listConversationsInput
  .unwrap()
  .omit({ limit: true, cursor: true })
  .extend({ format: z.enum(["csv", "json"]) });

export type ExportConversationsInput = z.infer<typeof exportConversationsInput>;

/** The query string of the export's URL (the panel's current filters and a format), validated. */
export function parseExportQuery(params: URLSearchParams): ExportConversationsInput {
  const result = exportConversationsInput.safeParse(storableQuery(params, { dropEmpty: true }));
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => `${issue.path.map(String).join(".")}: ${issue.message}`).join("; ");
  throw new AppError("INVALID_REQUEST", { details });
}

const CSV_COLUMNS = [
  "conversation_id",
  "agent_id",
  "agent_name",
  "channel",
  "status",
  "assignee",
  "visitor_name",
  "visitor_email",
  "visitor_phone",
  "first_page_url",
  "started_at",
  "message_sequence",
  "message_from",
  "message_at",
  "message_text",
] as const;

const ROLE_NAMES = { user: "visitor", agent: "agent", human: "team" } as const;

const EXPORT_POLICY = { name: "inbox-export", limit: INBOX_EXPORTS_PER_HOUR, windowSeconds: 3600 };

/**
 * The export as a streamed download. The permission and the person's hourly limit are checked
 * before anything is sent (an error is then a plain error answer, not half a file).
 */
export async function exportConversations(
  ctx: ConversationContext,
  scope: AdminScope,
  input: ExportConversationsInput,
): Promise<HttpResult> {
  assertMayCall(scope, "GET /api/panel/conversations/export");
  const limitHeaders = await enforceRateLimit(ctx.limiters.configured(EXPORT_POLICY), scope.userId);
  const { db } = ctx;
  await recordExport(db, scope, input);
  const day = ctx.now().toISOString().slice(0, 10);
  const csv = input.format === "csv";
  return {
    status: 200,
    headers: {
      ...limitHeaders,
      "content-type": csv ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="parley-conversations-${day}.${input.format}"`,
      "cache-control": "no-store",
    },
    stream: csv ? csvPieces(db, scope, input) : jsonPieces(db, scope, input),
  };
}

/** The audit log's record of a download: its format and which filters were set (not their values: a search may name a visitor). */
async function recordExport(db: Database, scope: AdminScope, input: ExportConversationsInput): Promise<void> {
  const filters = Object.entries(input)
    .filter(([name, value]) => name !== "format" && value !== undefined && value !== null)
    .map(([name]) => name)
    .sort();
  await recordAudit(db.prisma, scope, {
    action: "conversations.exported",
    targetType: "conversations",
    targetId: scope.workspaceId,
    targetLabel: `${input.format.toUpperCase()} export`,
    detail: { format: input.format, filters },
  });
}

async function* csvPieces(db: Database, scope: AdminScope, input: ExportConversationsInput): AsyncGenerator<string> {
  // A BOM so that spreadsheet programs read the file as UTF-8.
  yield `\uFEFF${stringify([CSV_COLUMNS as unknown as string[]])}`;
  for await (const page of exportPages(db, scope, input)) {
    const rows = page.flatMap((conversation) => {
      const head = [
        conversation.id,
        conversation.agentId,
        conversation.agent.name,
        conversation.channel,
        conversation.status,
        conversation.assignee ? teamMemberName(conversation.assignee) : "",
        conversation.visitorName ?? "",
        conversation.visitorEmail ?? "",
        conversation.visitorPhone ?? "",
        conversation.firstPageUrl ?? "",
        conversation.createdAt.toISOString(),
      ];
      if (conversation.messages.length === 0) return [[...head, "", "", "", ""]];
      return conversation.messages.map((message) => [
        ...head,
        String(message.sequence),
        ROLE_NAMES[message.role],
        message.createdAt.toISOString(),
        message.text,
      ]);
    });
    yield stringify(rows.map((row) => row.map(spreadsheetSafe)));
  }
}

async function* jsonPieces(db: Database, scope: AdminScope, input: ExportConversationsInput): AsyncGenerator<string> {
  yield '{"conversations":[';
  let first = true;
  for await (const page of exportPages(db, scope, input)) {
    for (const conversation of page) {
      const transcript = {
        id: conversation.id,
        agent: { id: conversation.agentId, name: conversation.agent.name },
        channel: conversation.channel,
        status: conversation.status,
        assignee: conversation.assignee ? teamMemberName(conversation.assignee) : null,
        visitor: { name: conversation.visitorName, email: conversation.visitorEmail, phone: conversation.visitorPhone },
        firstPageUrl: conversation.firstPageUrl,
        clientVariables: conversation.clientVariables,
        pageVariables: conversation.pageVariables,
        createdAt: conversation.createdAt.toISOString(),
        updatedAt: conversation.updatedAt.toISOString(),
        messages: conversation.messages.map((message) => ({
          sequence: message.sequence,
          from: ROLE_NAMES[message.role],
          text: message.text,
          createdAt: message.createdAt.toISOString(),
        })),
      };
      yield (first ? "\n" : ",\n") + JSON.stringify(transcript);
      first = false;
    }
  }
  yield "\n]}\n";
}

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or return before them) as a
 * formula: such a cell gets a leading apostrophe, which shows the text as written. Judged on the
 * NFKC-folded text, since a spreadsheet may fold fullwidth and small-form signs (＝ ﹢) to these.
 */
export function spreadsheetSafe(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell.normalize("NFKC")) ? `'${cell}` : cell;
}

const exportSelect = {
  ...conversationSelect,
  clientVariables: true,
  pageVariables: true,
  messages: { select: { sequence: true, role: true, text: true, createdAt: true }, orderBy: { sequence: "asc" } },
} satisfies Prisma.ConversationSelect;

type ExportRow = Prisma.ConversationGetPayload<{ select: typeof exportSelect }>;

/** The matching conversations with their messages, a page at a time, newest first. */
async function* exportPages(db: Database, scope: AdminScope, input: ExportConversationsInput): AsyncGenerator<ExportRow[]> {
  for await (const ids of matchingIdPages(db, scope, input)) {
    const rows = await db.prisma.conversation.findMany({ where: { id: { in: ids } }, select: exportSelect });
    const byId = new Map(rows.map((row) => [row.id, row]));
    yield ids.flatMap((id) => byId.get(id) ?? []);
  }
}

async function* matchingIdPages(db: Database, scope: AdminScope, input: ExportConversationsInput): AsyncGenerator<string[]> {
  if (input.q) {
    // A search's matches as a list of ids (small beside their transcripts), then paged.
    const ids = await searchConversationIds(
      db,
      input.q,
      { workspaceId: scope.workspaceId, ...input, assigneeId: assigneeIdOf(scope, input.assignee) },
      INBOX_EXPORT_MAX_CONVERSATIONS,
    );
    for (let at = 0; at < ids.length; at += INBOX_EXPORT_PAGE) yield ids.slice(at, at + INBOX_EXPORT_PAGE);
    return;
  }
  const where = filterWhere(scope, input);
  let after: { createdAt: Date; id: string } | undefined;
  for (;;) {
    const keyset: Prisma.ConversationWhereInput = after
      ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
      : {};
    const page = await db.prisma.conversation.findMany({
      where: { AND: [where, keyset] },
      select: { id: true, createdAt: true },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: INBOX_EXPORT_PAGE,
    });
    if (page.length > 0) yield page.map((row) => row.id);
    if (page.length < INBOX_EXPORT_PAGE) return;
    after = page.at(-1);
  }
}
