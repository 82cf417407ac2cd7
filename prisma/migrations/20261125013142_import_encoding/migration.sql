-- AlterTable
ALTER TABLE "imports" ADD COLUMN     "encoding" VARCHAR(40),
ADD COLUMN     "encoding_source" VARCHAR(16);
