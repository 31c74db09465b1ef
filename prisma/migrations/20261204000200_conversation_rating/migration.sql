-- How it went: the visitor's satisfaction rating of a resolved conversation (good, okay or bad,
-- with optional words), one per conversation; asked by the widget when a person resolves it.
CREATE TYPE "ConversationRatingValue" AS ENUM ('good', 'okay', 'bad');

CREATE TABLE "ConversationRating" (
    "id" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "rating" "ConversationRatingValue" NOT NULL,
    "comment" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConversationRating_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "ConversationRating_conversationId_key" ON "ConversationRating"("conversationId");

CREATE INDEX "ConversationRating_updatedAt_idx" ON "ConversationRating"("updatedAt");

ALTER TABLE "ConversationRating" ADD CONSTRAINT "ConversationRating_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
