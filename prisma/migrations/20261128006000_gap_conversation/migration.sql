-- A knowledge gap keeps the conversation its words come from, so erasing a visitor's data can
-- delete it (and deleting the conversation takes it along).
ALTER TABLE "KnowledgeGap" ADD COLUMN "conversationId" TEXT;

CREATE INDEX "KnowledgeGap_conversationId_idx" ON "KnowledgeGap"("conversationId");

ALTER TABLE "KnowledgeGap" ADD CONSTRAINT "KnowledgeGap_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
