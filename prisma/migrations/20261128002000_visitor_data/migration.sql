-- The visitor's data: erasure marks, per-agent retention and the cluster-wide job lease.
ALTER TABLE "Agent" ADD COLUMN "retentionDays" INTEGER;
ALTER TABLE "Conversation" ADD COLUMN "erasedAt" TIMESTAMP(3);

CREATE TABLE "JobLease" (
    "name" TEXT NOT NULL,
    "holder" TEXT,
    "lockedUntil" TIMESTAMP(3),
    "lastRunAt" TIMESTAMP(3),
    "runs" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "JobLease_pkey" PRIMARY KEY ("name")
);
