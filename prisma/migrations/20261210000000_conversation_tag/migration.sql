-- The inbox finds a conversation by the tag the panel shows for an anonymous visitor ("#K3Z9": the
-- last four characters of the conversation's id), through this index rather than a scan.
CREATE INDEX "Conversation_tag_idx" ON "Conversation" (right("id", 4));
