-- Images uploaded in the panel (article pictures, agents' logos), served at /api/images/<name>.
-- CreateTable
CREATE TABLE "UploadedImage" (
    "workspaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "data" BYTEA,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UploadedImage_pkey" PRIMARY KEY ("workspaceId","name")
);

-- CreateIndex
CREATE INDEX "UploadedImage_name_idx" ON "UploadedImage"("name");

-- CreateIndex
CREATE INDEX "UploadedImage_createdById_idx" ON "UploadedImage"("createdById");

-- AddForeignKey
ALTER TABLE "UploadedImage" ADD CONSTRAINT "UploadedImage_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UploadedImage" ADD CONSTRAINT "UploadedImage_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
