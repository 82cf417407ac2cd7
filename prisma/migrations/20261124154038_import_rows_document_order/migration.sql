-- DropIndex
DROP INDEX "import_rows_import_id_outcome_seq_idx";

-- AlterTable
ALTER TABLE "imports" ADD COLUMN     "count_no_currency" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "import_rows_import_id_row_seq_idx" ON "import_rows"("import_id", "row", "seq");

-- CreateIndex
CREATE INDEX "import_rows_import_id_outcome_row_seq_idx" ON "import_rows"("import_id", "outcome", "row", "seq");
