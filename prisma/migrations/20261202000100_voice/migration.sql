-- Voice over the widget / SDK socket: the agent's voice settings and limits, the month's heard
-- audio, and which messages were spoken (transcripts only: audio is never stored).
ALTER TABLE "Agent" ADD COLUMN "voiceEnabled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "voiceName" TEXT,
ADD COLUMN "voiceLanguage" TEXT NOT NULL DEFAULT 'en',
ADD COLUMN "monthlyVoiceMinutesLimit" INTEGER,
ADD COLUMN "voiceSessionsPerIp" INTEGER,
ADD COLUMN "voiceMinutesPerSession" INTEGER;

ALTER TABLE "UsageMonth" ADD COLUMN "voiceSeconds" INTEGER NOT NULL DEFAULT 0;

ALTER TABLE "Message" ADD COLUMN "voice" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "interrupted" BOOLEAN NOT NULL DEFAULT false;
