// What the control panel does, each operation checked against the admin's workspace (scope.ts):
// the tRPC procedures of @parley/api are thin calls over these.

export { articleSlugInput, slugFromTitle } from "../article-slugs.ts";
export { hashPassword, needsRehash, verifyPassword } from "../people/passwords.ts";
export { type VoiceAvailability, voiceAvailability } from "../voice/availability.ts";
export {
  changePassword,
  changePasswordInput,
  endOwnSessionById,
  getAccount,
  newPasswordInput,
  ownSessions,
  resetPassword,
  sessionIdInput,
} from "./account.ts";
export {
  agentIdInput,
  createAgent,
  createAgentInput,
  getAgent,
  getAgentKnowledgeSearch,
  listAgents,
  updateAgent,
  updateAgentInput,
} from "./agents.ts";
export {
  type ArticleRevisionDiff,
  type ArticleRevisionSummary,
  articleRevisionDiff,
  articleRevisionInput,
  articleRevisionsInput,
  type DiffPart,
  listArticleRevisions,
  restoreArticleRevision,
} from "./article-history.ts";
export { publishDueArticles, ScheduledPublisher, scheduleArticle, scheduleArticleInput } from "./article-schedule.ts";
export { SCHEDULED_PUBLICATIONS_INTERVAL_MS, scheduledPublicationsTask } from "./article-schedule-task.ts";
export { listTranslationOriginals, translationOriginalsInput } from "./article-translations.ts";
export {
  articleIdInput,
  createArticle,
  createArticleInput,
  getArticle,
  listArticles,
  listArticlesInput,
  previewArticle,
  previewArticleInput,
  setArticleActive,
  setArticleActiveInput,
  setArticlePublished,
  setArticlePublishedInput,
  updateArticle,
  updateArticleInput,
} from "./articles.ts";
export {
  type AuditActor,
  type AuditEntry,
  type AuditEventView,
  type ListAuditInput,
  listAudit,
  listAuditActors,
  listAuditInput,
  NO_CLIENT,
  recordAudit,
} from "./audit.ts";
export {
  AUDIT_ACTION_NAMES,
  AUDIT_ACTIONS,
  AUDIT_GROUPS,
  AUDIT_TARGET_LABELS,
  AUDIT_TARGET_TYPES,
  type AuditAction,
  type AuditGroup,
  type AuditTargetType,
  auditActionsOf,
  describeAuditEvent,
} from "./audit-actions.ts";
export {
  assigneeFilterInput,
  conversationStatusInput,
  getConversation,
  listConversations,
  listConversationsInput,
  waitingEscalations,
} from "./conversations.ts";
export { deleteAgent, deleteArticle, deleteByIdInput, deleteSource } from "./deletion.ts";
export { detectMissingLanguages, LanguageDetectionTask } from "./detected-languages.ts";
export { LANGUAGE_DETECTION_INTERVAL_MS, languageDetectionTask } from "./detected-languages-task.ts";
export {
  type AgentActivity,
  type GettingStarted,
  type NearQuota,
  type PanelHome,
  panelHome,
  type QuotaMeasure,
  type WaitingEscalation,
} from "./home.ts";
export { assignInput, changeConversation, conversationIdInput, replyInput, replyToConversation, signalTyping } from "./inbox.ts";
export { exportConversations, exportConversationsInput, parseExportQuery } from "./inbox-export.ts";
export { addNote, addNoteInput, type ConversationNoteView } from "./inbox-notes.ts";
export { INBOX_STREAM_HEADERS, inboxEventStream } from "./inbox-stream.ts";
export { type ActivityKind, type InboxTransition, planTransition } from "./inbox-transitions.ts";
export {
  agentKeyInput,
  generateHttpApiKey,
  issueAgentKey,
  type KeyRouteCaller,
  revokeHttpApiKey,
  revokeWorkspaceAgentKey,
} from "./keys.ts";
export { type KnowledgeGapGroup, listKnowledgeGaps, listKnowledgeGapsInput } from "./knowledge-gaps.ts";
export { type HeaderReader, isSameOrigin } from "./origin.ts";
export {
  acceptInvitation,
  acceptInvitationInput,
  deactivatePerson,
  invitationIdInput,
  inviteInput,
  inviteTeamMember,
  limitInvitationAttempt,
  listPeople,
  openInvitation,
  type PersonRow,
  personIdInput,
  reactivatePerson,
  revokeInvitation,
  roleInput,
  setRole,
  setRoleInput,
} from "./people.ts";
export {
  assertCan,
  assertMayCall,
  can,
  type InboxPermission,
  OPERATION_PERMISSIONS,
  PANEL_SECTIONS,
  type PanelOperation,
  PERMISSIONS,
  type Permission,
  panelSectionOf,
  panelSectionsFor,
  permissionOf,
  ROLES,
  type Role,
  roleMay,
  roleMayCall,
  roleOf,
} from "./permissions.ts";
export { eraseExpiredConversations, RetentionTask, type RetentionTaskOptions } from "./retention.ts";
export { retentionTask } from "./retention-task.ts";
export {
  createSavedReply,
  createSavedReplyInput,
  deleteSavedReply,
  fillSavedReply,
  fillSavedReplyInput,
  listSavedReplies,
  savedReplyIdInput,
  updateSavedReply,
  updateSavedReplyInput,
} from "./saved-replies.ts";
export { fillPlaceholders, SAVED_REPLY_PLACEHOLDERS } from "./saved-reply-placeholders.ts";
export type { AdminScope, RequestClient } from "./scope.ts";
export { checkSession, endAllSessions, endSession, type SessionAdmin, startSession } from "./sessions.ts";
export { passwordWork, signInAdmin } from "./sign-in.ts";
export {
  createSource,
  createSourceInput,
  listSources,
  setSourceAgents,
  setSourceAgentsInput,
  updateSource,
  updateSourceInput,
} from "./sources.ts";
export { listTeamMembers, publicName, teamMemberName, UNNAMED_TEAM_MEMBER } from "./team.ts";
export { runTestTurn, type TestChatReply, testChatInput } from "./test-chat.ts";
export { dailyUsage, dailyUsageInput, usageSummary } from "./usage.ts";
export {
  ERASE_CONFIRMATION_WORD,
  eraseConversations,
  eraseVisitorData,
  eraseVisitorInput,
  erasureConfirmed,
  exportVisitorData,
  parseVisitorTargetQuery,
  type VisitorTarget,
  visitorTargetInput,
} from "./visitor-data.ts";
export {
  createEndpoint,
  createEndpointInput,
  deleteEndpoint,
  deliveryIdInput,
  endpointIdInput,
  getDelivery,
  getEndpoint,
  listDeliveries,
  listDeliveriesInput,
  listEndpoints,
  retryDelivery,
  rollEndpointSecret,
  sendTestEvent,
  setEndpointEnabled,
  setEndpointEnabledInput,
  updateEndpoint,
  updateEndpointInput,
  webhookUrlPolicy,
} from "./webhooks.ts";
