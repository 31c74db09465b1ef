-- The first time an agent's widget connected from an allowed site other than this server's own
-- pages (the help centre), and that site's origin: the getting-started checklist ticks on it.
ALTER TABLE "Agent" ADD COLUMN "widgetSiteSeenAt" TIMESTAMP(3),
ADD COLUMN "widgetSiteOrigin" TEXT;
