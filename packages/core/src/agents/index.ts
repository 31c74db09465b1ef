// Agents: their settings, branding, API keys (and who may send a message with one), the test chat.

export { agentDetailOutput, agentListOutput, agentOperations, agentSummaryOutput } from "./agent-operations.ts";
export {
  agentIdInput,
  createAgent,
  createAgentInput,
  getAgent,
  listAgents,
  updateAgent,
  updateAgentInput,
} from "./agents.ts";
export { issuedAgentKeyOutput, keyOperations, revokedAgentKeyOutput } from "./keys/key-operations.ts";
export { authenticateAgent, type MessagingAgent } from "./keys/message-auth.ts";
export { agentKeyInput, generateHttpApiKey, issueAgentKey, revokeHttpApiKey, revokeWorkspaceAgentKey } from "./keys/operations.ts";
export { generateAgentKey, hashAgentKey, revokeAgentKey } from "./keys/secrets.ts";
