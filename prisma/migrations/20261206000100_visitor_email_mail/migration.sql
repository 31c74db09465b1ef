-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN "visitorPresentUntil" TIMESTAMP(3),
ADD COLUMN "visitorMailDueAt" TIMESTAMP(3),
ADD COLUMN "visitorMailedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Conversation_visitorMailDueAt_idx" ON "Conversation"("visitorMailDueAt");
