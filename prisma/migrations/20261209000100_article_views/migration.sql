-- Help-centre article views: each article's total, and its views per UTC day for the popular
-- list's last 30 days. Both are added to in batches by the `article-views` task; no visitor or
-- address is stored.
ALTER TABLE "Article" ADD COLUMN "viewCount" INTEGER NOT NULL DEFAULT 0;

CREATE TABLE "ArticleViewDay" (
    "articleId" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "views" INTEGER NOT NULL,

    CONSTRAINT "ArticleViewDay_pkey" PRIMARY KEY ("articleId","day")
);

CREATE INDEX "ArticleViewDay_day_idx" ON "ArticleViewDay"("day");

ALTER TABLE "ArticleViewDay" ADD CONSTRAINT "ArticleViewDay_articleId_fkey" FOREIGN KEY ("articleId") REFERENCES "Article"("id") ON DELETE CASCADE ON UPDATE CASCADE;
