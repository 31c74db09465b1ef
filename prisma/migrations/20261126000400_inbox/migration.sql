-- AlterEnum: a conversation closed by a person (panel only; the public wire stays active/escalated).
ALTER TYPE "ConversationStatus" ADD VALUE 'resolved';

-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN "assigneeId" TEXT,
ADD COLUMN "escalatedAt" TIMESTAMP(3),
ADD COLUMN "resolvedAt" TIMESTAMP(3),
ADD COLUMN "firstPageUrl" TEXT;

-- Conversations escalated before this migration have waited since their last change.
UPDATE "Conversation" SET "escalatedAt" = "updatedAt" WHERE "status" = 'escalated';

-- CreateTable
CREATE TABLE "ConversationActivity" (
    "id" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "actorId" TEXT,
    "assigneeId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConversationActivity_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ConversationActivity_conversationId_createdAt_idx" ON "ConversationActivity"("conversationId", "createdAt");

-- CreateIndex
CREATE INDEX "Conversation_assigneeId_updatedAt_idx" ON "Conversation"("assigneeId", "updatedAt" DESC);

-- CreateIndex
CREATE INDEX "Conversation_status_escalatedAt_idx" ON "Conversation"("status", "escalatedAt");

-- AddForeignKey
ALTER TABLE "Conversation" ADD CONSTRAINT "Conversation_assigneeId_fkey" FOREIGN KEY ("assigneeId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationActivity" ADD CONSTRAINT "ConversationActivity_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationActivity" ADD CONSTRAINT "ConversationActivity_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationActivity" ADD CONSTRAINT "ConversationActivity_assigneeId_fkey" FOREIGN KEY ("assigneeId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Inbox search. Message text as a stored full-text document (simple configuration: every word,
-- any language, no stemming; folded like the help search), and the visitor's identity and
-- variables as one folded text for substring matches over trigrams. Both are generated, never
-- written by the app.
ALTER TABLE "Message"
  ADD COLUMN "searchDocument" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, parley_search_text("text"))) STORED;
CREATE INDEX "Message_searchDocument_idx" ON "Message" USING gin ("searchDocument");

ALTER TABLE "Conversation"
  ADD COLUMN "searchVisitor" TEXT GENERATED ALWAYS AS (parley_search_text(
    coalesce("visitorName", '') || ' ' || coalesce("visitorEmail", '') || ' ' || coalesce("visitorPhone", '') || ' '
    || coalesce("firstPageUrl", '') || ' ' || "clientVariables"::text || ' ' || "pageVariables"::text
  )) STORED;
CREATE INDEX "Conversation_searchVisitor_trgm_idx" ON "Conversation" USING gin ("searchVisitor" gin_trgm_ops);

-- The inbox's list, newest activity first, walked in order (and stopped at the page) for every
-- filter; the search's newest-first window too.
CREATE INDEX "Conversation_updatedAt_id_idx" ON "Conversation"("updatedAt" DESC, "id" DESC);
