// The app's own site settings: the port it serves on, its public URL, and the first admin the demo
// seed creates. Plain zod, nothing of core: env.ts builds the app's settings with them, and the
// proxy (which Next bundles on its own) reads its two without loading the rest.
import { optionalUrl } from "@parley/db/env";
import { z } from "zod";

export const siteSettingsSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Public base URL of the app, used in links (help pages, canonical URLs, the seed's allowed origin). */
  APP_URL: optionalUrl,
  ADMIN_EMAIL: z.email().default("admin@example.com"),
  ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
});

export type SiteSettings = z.infer<typeof siteSettingsSchema>;

/** The public base URL: APP_URL, else http://localhost:PORT; no trailing slash. */
export function publicUrl(config: Pick<SiteSettings, "APP_URL" | "PORT">): string {
  return (config.APP_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, "");
}
