// The process-wide AppContext, built once from the app's settings (src/env.ts) and shared by every route handler,
// tRPC procedure and the server entry.
import { type AppContext, senderFor, smtpMailer } from "@parley/core";
import { createEngineSelector, llmConfigFrom } from "@parley/core/engine";
import { ArticleViewCounter } from "@parley/core/help";
import { imageBucketConfigFrom, s3ImageBucket } from "@parley/core/images";
import { createRateLimiters } from "@parley/core/ratelimit";
import { createSpeechEngines, speechConfigFrom } from "@parley/core/voice";
import { createLiveBus } from "@parley/core/widget";
import { getDb } from "@parley/db";
import { type AppEnv, appEnv } from "../env.ts";
import { publicUrl } from "../site.ts";
import { processRegistry } from "./registry.ts";
import { getSemanticSearch } from "./semantic.ts";

async function build(): Promise<AppContext> {
  const config = appEnv();
  const db = await getDb();
  const appUrl = publicUrl(config);
  // Nothing heavy loads here: the engines start on a voice session's first use.
  const speech = createSpeechEngines(speechConfigFrom(config));
  const imageBucket = imageBucketConfigFrom(config);
  processRegistry().shutdown.add(() => speech.close());
  return {
    db,
    limiters: createRateLimiters({
      redisUrl: config.REDIS_URL,
      upstash:
        config.UPSTASH_REDIS_REST_URL && config.UPSTASH_REDIS_REST_TOKEN
          ? { url: config.UPSTASH_REDIS_REST_URL, token: config.UPSTASH_REDIS_REST_TOKEN }
          : undefined,
      // 1 unless the benchmark or the reliability suite sets RATE_LIMIT_SCALE explicitly.
      scale: config.RATE_LIMIT_SCALE,
      connectionsScale: config.WIDGET_CONNECTIONS_SCALE,
    }),
    engineFor: createEngineSelector({
      db,
      appUrl,
      llm: llmConfigFrom(config),
      semantic: (await getSemanticSearch()) ?? undefined,
    }),
    appUrl,
    live: createLiveBus({ redisUrl: config.REDIS_URL }),
    trustProxy: config.TRUST_PROXY,
    webhooks: { allowLocal: config.WEBHOOKS_ALLOW_LOCAL },
    mailer: config.SMTP_URL ? smtpMailer(config.SMTP_URL, senderFor(appUrl)) : undefined,
    visitorMailDelayMs: config.VISITOR_MAIL_DELAY_SECONDS * 1000,
    imageBucket: imageBucket ? s3ImageBucket(imageBucket) : undefined,
    speech,
    // Counted in memory on help reads, stored in batches by the scheduler's article-views task.
    articleViews: new ArticleViewCounter({ db }),
    now: () => new Date(),
  };
}

/** The public base URL (site.ts) of the app's settings; needs no database. */
export function publicAppUrl(config: Pick<AppEnv, "APP_URL" | "PORT"> = appEnv()): string {
  return publicUrl(config);
}

export function getAppContext(): Promise<AppContext> {
  const registry = processRegistry();
  registry.context ??= build();
  return registry.context;
}
