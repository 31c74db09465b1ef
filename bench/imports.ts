// The import step: a .zip of Markdown articles uploaded to the running app as the panel does, and
// imported by the app's worker; its time and what it did to the app's memory (the zip is read as a
// stream, each article written on its own, so the resident size should stay flat).
import type { Database } from "@parley/db";
import { strToU8, zipSync } from "fflate";
import type { RssSampler } from "./processes.ts";

export interface ImportMeasurement {
  articles: number;
  zipMegabytes: number;
  seconds: number;
  status: string;
  created: number;
  failed: number;
  rssBeforeMb: number;
  /** The app's peak once a quarter of the articles were imported (buffers and heap warmed up). */
  rssQuarterMb: number;
  rssPeakMb: number;
}

const SOURCE_ID = "bench_import_source";
const PARAGRAPH = "Open **Settings**, choose _Billing_ and follow the steps. Refunds take five working days. ";

function benchZip(count: number): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (let n = 0; n < count; n++) {
    files[`articles/bench-import-${n}.md`] = strToU8(
      `---\ntitle: Imported article ${n}\npublished: true\n---\n\n## Steps\n\n${PARAGRAPH.repeat(8)}\n`,
    );
  }
  return zipSync(files, { level: 6 });
}

export async function measureImport(
  appUrl: string,
  cookie: string,
  db: Database,
  sampler: RssSampler,
  count: number,
): Promise<ImportMeasurement> {
  await db.query(
    `INSERT INTO "Source" (id, "workspaceId", name, active, "updatedAt") VALUES ($1, 'bench_workspace', 'Bench import', true, now()) ON CONFLICT (id) DO NOTHING`,
    [SOURCE_ID],
  );
  const zip = benchZip(count);
  sampler.resetPeak();
  const rssBeforeMb = sampler.peakMb();
  const started = performance.now();
  const response = await fetch(`${appUrl}/api/panel/imports?sourceId=${SOURCE_ID}&kind=markdown_zip`, {
    method: "POST",
    headers: { cookie, origin: appUrl, "content-type": "application/zip" },
    body: new Uint8Array(zip),
  });
  const json = (await response.json()) as { data?: { id: string } };
  if (response.status !== 202 || !json.data) throw new Error(`import upload answered ${response.status}: ${JSON.stringify(json)}`);
  let rssQuarterMb = 0;
  for (;;) {
    const [job] = await db.query<{ status: string; created: number; failed: number; processed: number }>(
      `SELECT status::text AS status, created, failed, processed FROM "ImportJob" WHERE id = $1`,
      [json.data.id],
    );
    if (rssQuarterMb === 0 && job && job.processed >= count / 4) rssQuarterMb = sampler.peakMb();
    if (job && (job.status === "done" || job.status === "failed")) {
      return {
        articles: count,
        zipMegabytes: zip.length / 1024 / 1024,
        seconds: (performance.now() - started) / 1000,
        status: job.status,
        created: job.created,
        failed: job.failed,
        rssBeforeMb,
        rssQuarterMb,
        rssPeakMb: sampler.peakMb(),
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
