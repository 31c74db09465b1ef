// Before measuring, the same few requests of each scenario go to the app and to the baseline and
// the answers are compared (status, JSON shape, ids and their order, article fields), so the
// ratio compares servers doing the same work. Differences are reported, not fatal.
import { type ScenarioInput, type ScenarioName, scenarioRequests } from "./scenarios.ts";

const SAMPLES_PER_SCENARIO = 4;

interface Answer {
  status: number;
  body: unknown;
}

async function ask(
  base: string,
  request: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  const response = await fetch(`${base}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text.slice(0, 200) };
  }
}

type Json = Record<string, unknown>;
const data = (answer: Answer) => ((answer.body as Json | null)?.data ?? {}) as Json;
const keysOf = (value: unknown) => (value && typeof value === "object" ? Object.keys(value).sort().join(",") : typeof value);

function compareLists(label: string, app: Json[], baseline: Json[]): string | null {
  const appIds = app.map((item) => item.id);
  const baselineIds = baseline.map((item) => item.id);
  if (app[0] && baseline[0] && keysOf(app[0]) !== keysOf(baseline[0])) {
    return `${label}: item fields differ (app ${keysOf(app[0])}, baseline ${keysOf(baseline[0])})`;
  }
  if (appIds.join() === baselineIds.join()) return null;
  const first = appIds.findIndex((id, index) => id !== baselineIds[index]);
  return `${label}: app ${appIds.length} items, baseline ${baselineIds.length}, first difference at position ${first === -1 ? appIds.length : first}`;
}

function compare(scenario: ScenarioName, label: string, app: Answer, baseline: Answer): string | null {
  if (app.status !== baseline.status) return `${label}: status app ${app.status}, baseline ${baseline.status}`;
  if (app.status !== 200) return `${label}: both ${app.status}`;
  switch (scenario) {
    case "help collections":
      return JSON.stringify(data(app).collections) === JSON.stringify(data(baseline).collections) ? null : `${label}: collections differ`;
    case "article list":
    case "search words":
    case "search substring":
      return compareLists(label, (data(app).articles ?? []) as Json[], (data(baseline).articles ?? []) as Json[]);
    case "article read": {
      const a = data(app);
      const b = data(baseline);
      const fields = ["id", "sourceId", "sourceName", "title", "content", "updatedAt"];
      const differing = fields.filter((field) => JSON.stringify(a[field]) !== JSON.stringify(b[field]));
      if (keysOf(a) !== keysOf(b)) differing.push(`fields (${keysOf(a)} / ${keysOf(b)})`);
      return differing.length === 0 ? null : `${label}: ${differing.join(", ")} differ`;
    }
    case "knowledge turn":
    case "eval turns": {
      const a = app.body as Json;
      const b = baseline.body as Json;
      if (keysOf(a) !== keysOf(b)) return `${label}: response fields differ (app ${keysOf(a)}, baseline ${keysOf(b)})`;
      // The eval's questions (five languages, typos, paraphrases) are where the engine's passage
      // index and the baseline's English full-text search part ways by design: the eval judges
      // the engine's answers, so only the form is compared here.
      if (scenario === "eval turns") return null;
      // The baseline approximates the knowledge agent: only the cited articles are compared.
      const cited = (body: Json) =>
        ((body.richContent as Json[] | undefined)?.find((item) => item.type === "articles")?.articles as Json[] | undefined)?.map(
          (item) => item.id,
        ) ?? [];
      return cited(a).join() === cited(b).join()
        ? null
        : `${label}: cited articles differ (app ${cited(a).length}, baseline ${cited(b).length})`;
    }
    case "inbox search":
    case "inbox list":
      // The app alone: the baseline serves no panel (never compared, see run.ts).
      return null;
  }
}

export async function compareResponses(
  appUrl: string,
  baselineUrl: string,
  scenarios: ScenarioName[],
  input: ScenarioInput,
): Promise<string[]> {
  const found: string[] = [];
  for (const scenario of scenarios) {
    for (const request of scenarioRequests(scenario, input).slice(0, SAMPLES_PER_SCENARIO)) {
      const label = `${scenario} ${request.method} ${decodeURIComponent(request.path ?? "").replace(/^\/api\/agent\/[^/]+/, "")}${request.body ? ` ${request.body}` : ""}`;
      const [app, baseline] = [await ask(appUrl, request), await ask(baselineUrl, request)];
      const difference = compare(scenario, label, app, baseline);
      if (difference) found.push(difference);
    }
  }
  return found;
}
