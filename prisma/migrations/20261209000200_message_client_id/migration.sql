-- The widget's id of a visitor message (`clientMessageId`): a message the widget sends again after
-- a reconnect is stored once per conversation. Messages without one keep NULL, which the unique
-- index never compares.
ALTER TABLE "Message" ADD COLUMN "clientMessageId" TEXT;

CREATE UNIQUE INDEX "Message_conversationId_clientMessageId_key" ON "Message"("conversationId", "clientMessageId");
