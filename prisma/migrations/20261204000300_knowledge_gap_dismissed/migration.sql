-- The gaps page: a person may dismiss a group of questions (the audit log says who and when); its
-- questions asked up to then leave the page and the home page's count alike.
ALTER TABLE "KnowledgeGap" ADD COLUMN "dismissedAt" TIMESTAMP(3);
