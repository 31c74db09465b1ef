// Conversations: the turn (REST, widget, voice), the inbox and its operations, saved replies,
// the live bus to connected visitors and panels, the visitor's data, retention.

export { deleteAgent } from "./agent-deletion.ts";
export { agentConversationOperations } from "./agent-operations.ts";
export { escalatedReply, formatWithin, HANDOFF_TEXTS, handoffNotice, typicalReplyMs, visitorNotice } from "./handoff.ts";
export { getConversation, listConversations, listConversationsInput, waitingEscalations } from "./inbox/conversations.ts";
export { exportConversations, parseExportQuery } from "./inbox/export.ts";
export { assignInput, changeConversation, conversationIdInput, replyInput, replyToConversation, signalTyping } from "./inbox/inbox.ts";
export { conversationDetailOutput, conversationListOutput, conversationOperations } from "./inbox/inbox-operations.ts";
export { addNote, addNoteInput } from "./inbox/notes.ts";
export { INBOX_STREAM_HEADERS, inboxEventStream } from "./inbox/stream.ts";
export { planTransition } from "./inbox/transitions.ts";
export { RetentionTask } from "./retention.ts";
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
} from "./saved-replies/saved-replies.ts";
export { savedReplyOperations } from "./saved-replies/saved-reply-operations.ts";
export { runTestTurn, testChatInput } from "./test-chat.ts";
export { acceptsEventStream, serverSentEvent } from "./turn/event-stream.ts";
export { invalidRequest, type MessageRequest, messageRequestSchema } from "./turn/message-schema.ts";
export { type SendMessageInput, sendMessage } from "./turn/send-message.ts";
export { type MessageResponse, runTurn } from "./turn/turn.ts";
export { eraseVisitorData, eraseVisitorInput, exportVisitorData, parseVisitorTargetQuery } from "./visitor-data.ts";
export { visitorDataOperations } from "./visitor-data-operations.ts";
export {
  mailTranscript,
  replyMail,
  resumeLink,
  resumeTokenOfLink,
  scheduleReplyMail,
  sendDueReplyMails,
  setVisitorEmail,
  transcriptMail,
  VisitorMailTask,
  visitorEmailInput,
  visitorMailTask,
} from "./visitor-email.ts";
export { toWireMessage, type WireMessage } from "./wire-message.ts";
