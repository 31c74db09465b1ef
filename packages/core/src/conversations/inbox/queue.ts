// The inbox's one queue rule, used by the conversation list (every filter) and the panel home:
// conversations whose visitor waits for a person come first, the longest wait first (the oldest
// `waitingSince`, set by turn-store.ts and cleared by a person's reply, hand back or resolve);
// then all the others, most recently active first. A search orders its matches by activity
// instead (search.ts): it answers "where was this said", not "who is next".
//
// Pages follow the rule with a keyset cursor (the last row of the previous page): the waiting
// part is walked on the waitingSince index, the rest on the (updatedAt, id) index, so a page is
// at most two index-ordered reads, however large the inbox.
import type { Prisma } from "@parley/db";

/** What the order reads of a conversation (the cursor's position, or a row to sort). */
export interface QueuePosition {
  id: string;
  waitingSince: Date | null;
  updatedAt: Date;
}

/** The rule as a comparison, for rows already in memory (tests, and anything sorted client side). */
export function compareQueue(a: QueuePosition, b: QueuePosition): number {
  if (a.waitingSince && b.waitingSince) {
    return a.waitingSince.getTime() - b.waitingSince.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  }
  if (a.waitingSince) return -1;
  if (b.waitingSince) return 1;
  return b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

type Find<Row> = (args: {
  where: Prisma.ConversationWhereInput;
  orderBy: Prisma.ConversationOrderByWithRelationInput[];
  take: number;
}) => Promise<Row[]>;

/**
 * Up to `take` conversations matching `where`, in queue order, after `cursor` (null: from the
 * start). `find` runs one read (prisma.conversation.findMany with the caller's select).
 */
export async function findInQueueOrder<Row>(
  find: Find<Row>,
  where: Prisma.ConversationWhereInput,
  cursor: QueuePosition | null,
  take: number,
): Promise<Row[]> {
  const rows: Row[] = [];
  if (cursor === null || cursor.waitingSince !== null) {
    const after: Prisma.ConversationWhereInput[] = cursor?.waitingSince
      ? [{ OR: [{ waitingSince: { gt: cursor.waitingSince } }, { waitingSince: cursor.waitingSince, id: { gt: cursor.id } }] }]
      : [];
    rows.push(
      ...(await find({
        where: { AND: [where, { waitingSince: { not: null } }, ...after] },
        orderBy: [{ waitingSince: "asc" }, { id: "asc" }],
        take,
      })),
    );
  }
  if (rows.length < take) {
    const after: Prisma.ConversationWhereInput[] =
      cursor && cursor.waitingSince === null
        ? [{ OR: [{ updatedAt: { lt: cursor.updatedAt } }, { updatedAt: cursor.updatedAt, id: { lt: cursor.id } }] }]
        : [];
    rows.push(
      ...(await find({
        where: { AND: [where, { waitingSince: null }, ...after] },
        orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
        take: take - rows.length,
      })),
    );
  }
  return rows;
}
