-- The inbox queue and what the visitor is told: since when the visitor has waited for a person
-- (the queue's order, longest wait first), and who the visitor was told has joined (a person who
-- took the conversation over or replied; an assignment alone tells the visitor nothing).
ALTER TABLE "Conversation" ADD COLUMN "waitingSince" TIMESTAMP(3),
ADD COLUMN "joinedById" TEXT;

CREATE INDEX "Conversation_waitingSince_idx" ON "Conversation"("waitingSince");

ALTER TABLE "Conversation" ADD CONSTRAINT "Conversation_joinedById_fkey" FOREIGN KEY ("joinedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Escalated conversations no person has answered since they escalated are waiting since then.
UPDATE "Conversation" c SET "waitingSince" = c."escalatedAt"
WHERE c."status" = 'escalated' AND c."escalatedAt" IS NOT NULL
  AND NOT EXISTS (
    SELECT 1 FROM "Message" m WHERE m."conversationId" = c."id" AND m."role" = 'human' AND m."createdAt" >= c."escalatedAt"
  );

-- The assignee of an escalated conversation joined it when they took it over themselves or a
-- person replied since it escalated.
UPDATE "Conversation" c SET "joinedById" = c."assigneeId"
WHERE c."status" = 'escalated' AND c."assigneeId" IS NOT NULL
  AND (
    EXISTS (SELECT 1 FROM "ConversationActivity" a WHERE a."conversationId" = c."id" AND a."kind" = 'taken_over' AND a."actorId" = c."assigneeId")
    OR c."waitingSince" IS NULL
  );
