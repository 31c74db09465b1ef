// Help-centre article views, counted without slowing a read: each read of a visible article adds
// one to a count in this process's memory (no database work, no waiting), and the `article-views`
// task adds the counts to the database every few seconds and once more at shutdown, in one
// statement per batch ("viewCount" + n once per article, and today's bucket for the popular
// list). One visitor counts once per article in ARTICLE_VIEW_REPEAT_MINUTES (remembered by a keyed
// hash of agent, article and address, never the address itself); crawlers count never.
import { createHmac, randomBytes } from "node:crypto";
import { type Database, Prisma } from "@parley/db";
import { describeError, logger } from "../platform/logger.ts";
import { type ScheduledTask, scheduleTask } from "../platform/scheduler/task.ts";
import { ARTICLE_VIEW_REPEAT_MINUTES, ARTICLE_VIEW_VISITORS_MAX, ARTICLE_VIEWS_FLUSH_SECONDS, POPULAR_VIEWS_DAYS } from "./limits.ts";

/** One read of an article the help centre showed (the visibility rule already passed). */
export interface ArticleView {
  agentId: string;
  articleId: string;
  clientIp: string;
  userAgent: string | null;
}

/**
 * Crawlers, link previews, monitors, scripts and browser automation, by their User-Agent; an
 * empty one too (browsers always send one). Not every bot says so: the repeat window bounds the rest.
 */
const CRAWLER_USER_AGENT =
  /bot\b|bot[/;_-]|crawl|spider|slurp|scrap|archiver|headless|lighthouse|pagespeed|gtmetrix|pingdom|uptime|monitor|preview|facebookexternalhit|embedly|whatsapp|curl\/|wget|httpie|python|java\/|okhttp|go-http-client|node-fetch|undici|axios|libwww|perl|ruby|php\/|playwright|puppeteer|selenium|parley-/i;

export function isCrawler(userAgent: string | null | undefined): boolean {
  const agent = userAgent?.trim();
  return !agent || CRAWLER_USER_AGENT.test(agent);
}

export interface ArticleViewCounterOptions {
  db: Database;
  now?: () => Date;
}

/**
 * This process's view counts and the visitors it has counted recently. `record` is what a help
 * read calls; `flush` (the task's run) stores the counts gathered since the last flush.
 */
export class ArticleViewCounter {
  readonly name = "article-views";
  private readonly db: Database;
  private readonly now: () => Date;
  /** Article id → views not yet stored. */
  private pending = new Map<string, number>();
  /** Visitor key → when it may count again (ms); in the order first counted, so the oldest expire first. */
  private readonly recent = new Map<string, number>();
  /** Per process: a visitor's key cannot be turned back into the address, nor matched across restarts. */
  private readonly key = randomBytes(32);
  private flushing: Promise<void> = Promise.resolve();
  private lastPrunedDay: string | null = null;

  constructor(options: ArticleViewCounterOptions) {
    this.db = options.db;
    this.now = options.now ?? (() => new Date());
  }

  /** Counts one view unless it is a crawler's or the visitor's repeat; true when counted. Never throws. */
  record(view: ArticleView): boolean {
    try {
      if (isCrawler(view.userAgent)) return false;
      const now = this.now().getTime();
      const visitor = createHmac("sha256", this.key).update(`${view.agentId}\n${view.articleId}\n${view.clientIp}`).digest("base64url");
      const until = this.recent.get(visitor);
      if (until !== undefined && until > now) return false;
      this.recent.delete(visitor);
      this.recent.set(visitor, now + ARTICLE_VIEW_REPEAT_MINUTES * 60_000);
      if (this.recent.size > ARTICLE_VIEW_VISITORS_MAX) {
        const oldest = this.recent.keys().next().value;
        if (oldest !== undefined) this.recent.delete(oldest);
      }
      this.pending.set(view.articleId, (this.pending.get(view.articleId) ?? 0) + 1);
      return true;
    } catch {
      return false;
    }
  }

  /** Views counted and not yet stored (for tests and the health of the task). */
  get pendingViews(): number {
    let total = 0;
    for (const views of this.pending.values()) total += views;
    return total;
  }

  /**
   * Stores the views counted since the last flush (one at a time). A batch that fails is logged
   * and dropped, never retried: part of it may be stored, and counting it twice is worse than
   * losing a few seconds of views. Rejects with the failure (the scheduler records it).
   */
  flush(): Promise<void> {
    const next = this.flushing.then(() => this.writeBatch());
    this.flushing = next.catch(() => undefined);
    return next;
  }

  /** The task's run. */
  run(): Promise<void> {
    return this.flush();
  }

  /** At shutdown: the views counted since the last run are stored too (a failure is only logged). */
  async stop(): Promise<void> {
    await this.flush().catch(() => undefined);
  }

  private async writeBatch(): Promise<void> {
    const now = this.now();
    this.forgetExpired(now.getTime());
    const batch = this.pending;
    if (batch.size === 0) return this.pruneDays(now);
    this.pending = new Map();
    try {
      await storeArticleViews(this.db, batch, now);
    } catch (error) {
      let views = 0;
      for (const count of batch.values()) views += count;
      logger.error("article views not stored", { articles: batch.size, views, error: describeError(error) });
      throw error;
    }
    await this.pruneDays(now);
  }

  private forgetExpired(now: number): void {
    for (const [visitor, until] of this.recent) {
      if (until > now) break;
      this.recent.delete(visitor);
    }
  }

  /** Once a day per process: the days the popular list no longer reads are deleted. */
  private async pruneDays(now: Date): Promise<void> {
    const today = utcDay(now);
    if (this.lastPrunedDay === today) return;
    this.lastPrunedDay = today;
    await this.db.rows(Prisma.sql`DELETE FROM "ArticleViewDay" WHERE "day" < ${viewsSince(now)}::date`);
  }
}

/**
 * One statement for the whole batch, so it is stored whole or not at all: each article's total
 * goes up by its views once, and so does its bucket for the day. Deleted articles are skipped.
 */
export async function storeArticleViews(db: Database, batch: ReadonlyMap<string, number>, now: Date): Promise<void> {
  const ids = [...batch.keys()];
  const views = ids.map((id) => batch.get(id) ?? 0);
  await db.rows(Prisma.sql`
    WITH batch AS (
      SELECT * FROM unnest(${ids}::text[], ${views}::int[]) AS b("articleId", "views")
    ), counted AS (
      UPDATE "Article" a SET "viewCount" = a."viewCount" + b."views"
      FROM batch b
      WHERE a."id" = b."articleId"
      RETURNING a."id", b."views"
    )
    INSERT INTO "ArticleViewDay" ("articleId", "day", "views")
    SELECT c."id", ${utcDay(now)}::date, c."views" FROM counted c
    ON CONFLICT ("articleId", "day") DO UPDATE SET "views" = "ArticleViewDay"."views" + EXCLUDED."views"`);
}

/** The first day the popular list counts (POPULAR_VIEWS_DAYS days, today included), as YYYY-MM-DD. */
export function viewsSince(now: Date): string {
  return utcDay(new Date(now.getTime() - (POPULAR_VIEWS_DAYS - 1) * 86_400_000));
}

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The counter as a task of the scheduler: every instance stores its own counts. */
export function articleViewsTask(counter: ArticleViewCounter, intervalMs = ARTICLE_VIEWS_FLUSH_SECONDS * 1000): ScheduledTask {
  return scheduleTask(counter, { intervalMs });
}
