-- Widget: a conversation's first message is bound to the page that sent it (a hash of the page's
-- startKey and the message's clientMessageId), so the same message sent again after the socket died
-- before `ready` joins this conversation instead of starting a second one. The unique index also
-- makes two concurrent sends of it start one conversation. NULL (every other conversation) is never
-- compared.
ALTER TABLE "Conversation" ADD COLUMN "firstMessageKeyHash" TEXT;

CREATE UNIQUE INDEX "Conversation_agentId_firstMessageKeyHash_key" ON "Conversation"("agentId", "firstMessageKeyHash");
