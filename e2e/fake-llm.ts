// The fake OpenAI-compatible server of the tests (@parley/testing/fake-openai) as a
// process of its own, for the journeys: the app's LLM settings point at it (playwright.config.ts),
// and a journey scripts its answers over HTTP (POST /fake/enqueue, /fake/release).
import { startFakeOpenAi } from "@parley/testing/fake-openai";

async function main(): Promise<void> {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: set by playwright.config.ts, never by a turbo task.
  const port = Number(process.env.FAKE_LLM_PORT);
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: set by playwright.config.ts, never by a turbo task.
  const fake = await startFakeOpenAi({ apiKey: process.env.FAKE_LLM_API_KEY, port });
  console.log(`fake LLM listening on ${fake.baseUrl}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      void fake.close().finally(() => process.exit(0));
    });
  }
}

void main();
