-- The help centre's and the widget's look per agent, and test conversations (the agent page's test chat).
ALTER TABLE "Agent" ADD COLUMN "branding" JSONB NOT NULL DEFAULT '{}';

ALTER TABLE "Conversation" ADD COLUMN "test" BOOLEAN NOT NULL DEFAULT false;
