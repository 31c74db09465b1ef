-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "answerBeyondArticles" BOOLEAN NOT NULL DEFAULT false;
