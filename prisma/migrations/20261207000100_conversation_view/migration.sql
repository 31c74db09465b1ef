-- Per-person unread state in the inbox: when each person last viewed each conversation. A visitor
-- message after that makes the conversation unread for them.
-- CreateTable
CREATE TABLE "ConversationView" (
    "userId" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "viewedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConversationView_pkey" PRIMARY KEY ("userId","conversationId")
);

-- CreateIndex
CREATE INDEX "ConversationView_conversationId_idx" ON "ConversationView"("conversationId");

-- AddForeignKey
ALTER TABLE "ConversationView" ADD CONSTRAINT "ConversationView_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationView" ADD CONSTRAINT "ConversationView_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
