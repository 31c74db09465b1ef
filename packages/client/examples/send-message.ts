// Sends a message to an agent and continues the conversation.
//
//   export PARLEY_BASE_URL=http://localhost:3000 PARLEY_AGENT_ID=demo PARLEY_API_KEY=pk_...
//   npx tsx packages/client/examples/send-message.ts
import { Parley, ParleyError, QuotaExceededError } from "@parley/client";

const baseUrl = process.env.PARLEY_BASE_URL ?? "http://localhost:3000";
const agentId = process.env.PARLEY_AGENT_ID ?? "demo";
const apiKey = process.env.PARLEY_API_KEY;
if (!apiKey) {
  console.error("Set PARLEY_API_KEY to the agent's key (control panel: Agents → the agent → Generate key).");
  process.exit(1);
}

const parley = new Parley({
  baseUrl,
  agentId,
  apiKey,
  onRetry: ({ delayMs, error }) => console.error(`(${error.message}; retrying in ${delayMs / 1000} s)`),
});

try {
  const first = await parley.messages.send({ message: "How do I reset my password?", visitor: { name: "Ada" } });
  console.log(`you:   How do I reset my password?\nagent: ${first.reply}`);
  for (const item of first.richContent) {
    if (item.type === "articles") for (const article of item.articles) console.log(`       see “${article.title}”: ${article.url}`);
  }

  // Continue the same conversation by sending its id back.
  const second = await parley.messages.send({ message: "Thanks. Can I talk to a human?", conversationId: first.conversationId });
  console.log(`you:   Thanks. Can I talk to a human?\nagent: ${second.reply}`);
  console.log(`conversation ${second.conversationId}: ${second.status}${second.handoffRequested ? " (a person was asked for)" : ""}`);
} catch (error) {
  if (error instanceof QuotaExceededError) {
    console.error(`Alert the operator: ${error.error}. The agent's monthly limits are reached; retrying will not help.`);
    process.exit(2);
  }
  if (error instanceof ParleyError) {
    console.error(`Parley: ${error.message}${error.requestId ? ` (request ${error.requestId})` : ""}`);
    process.exit(1);
  }
  throw error;
}
