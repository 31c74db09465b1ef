-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "widgetConnectionsPerIp" INTEGER,
ADD COLUMN     "widgetConversationsPerIpPerHour" INTEGER,
ADD COLUMN     "widgetMessagesPerConnectionPerMinute" INTEGER,
ADD COLUMN     "widgetMessagesPerIpPerMinute" INTEGER,
ADD COLUMN     "widgetMonthlyConversationLimit" INTEGER,
ADD COLUMN     "widgetMonthlyTokenLimit" INTEGER;

-- AlterTable
ALTER TABLE "UsageMonth" ADD COLUMN     "widgetConversations" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "widgetTokens" INTEGER NOT NULL DEFAULT 0;
