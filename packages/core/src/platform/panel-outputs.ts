// The pieces the control panel's output schemas share (each module declares its own outputs beside
// its panel operations). Zod objects drop any key they do not name, so a field added to a query (a
// key hash, a webhook secret) never reaches the panel unless an output declares it. The only
// secrets declared are the ones shown once on purpose: a generated agent key and a new webhook
// signing secret.
import { z } from "zod";

export const id = z.string();
export const moment = z.date();
export const count = z.number().int();
/** A monthly limit or a widget setting; null means unlimited (or the default). */
export const optionalLimit = z.number().int().nullable();
/** A page of a list, with the cursor of the next page (null on the last page). */
export const page = <Item extends z.ZodType>(item: Item) => z.object({ items: z.array(item), nextCursor: id.nullable() });

export const okOutput = z.object({ ok: z.literal(true) });
