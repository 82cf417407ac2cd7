-- CreateEnum
CREATE TYPE "ImportKind" AS ENUM ('urls', 'document');

-- CreateEnum
CREATE TYPE "ImportStatus" AS ENUM ('previewing', 'ready', 'storing', 'stored', 'failed', 'discarded');

-- CreateEnum
CREATE TYPE "ImportRowOutcome" AS ENUM ('create', 'update', 'unchanged', 'error');

-- CreateEnum
CREATE TYPE "ImportStoredAction" AS ENUM ('created', 'updated', 'unchanged');

-- CreateTable
CREATE TABLE "imports" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "kind" "ImportKind" NOT NULL,
    "name" TEXT NOT NULL,
    "status" "ImportStatus" NOT NULL DEFAULT 'previewing',
    "error" TEXT,
    "currency" CHAR(3),
    "done" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER,
    "phase_started_at" TIMESTAMP(3),
    "count_create" INTEGER NOT NULL DEFAULT 0,
    "count_update" INTEGER NOT NULL DEFAULT 0,
    "count_unchanged" INTEGER NOT NULL DEFAULT 0,
    "count_error" INTEGER NOT NULL DEFAULT 0,
    "count_skipped" INTEGER NOT NULL DEFAULT 0,
    "result" JSONB,
    "created_by" UUID,
    "lease_until" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "imports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "import_rows" (
    "import_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "row" INTEGER NOT NULL,
    "url" TEXT,
    "outcome" "ImportRowOutcome" NOT NULL,
    "error" TEXT,
    "match_product_id" UUID,
    "match_by" TEXT,
    "match_title" TEXT,
    "match_sku" TEXT,
    "changes" JSONB NOT NULL DEFAULT '{}',
    "product" JSONB,
    "item" JSONB,
    "dropped_images" JSONB,
    "skipped" BOOLEAN NOT NULL DEFAULT false,
    "stored" "ImportStoredAction",
    "stored_product_id" UUID,

    CONSTRAINT "import_rows_pkey" PRIMARY KEY ("import_id","seq")
);

-- CreateIndex
CREATE INDEX "imports_org_id_created_at_id_idx" ON "imports"("org_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "imports_status_lease_until_idx" ON "imports"("status", "lease_until");

-- CreateIndex
CREATE INDEX "import_rows_import_id_outcome_seq_idx" ON "import_rows"("import_id", "outcome", "seq");

-- CreateIndex
CREATE INDEX "import_rows_import_id_row_idx" ON "import_rows"("import_id", "row");

-- AddForeignKey
ALTER TABLE "imports" ADD CONSTRAINT "imports_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "imports"("id") ON DELETE CASCADE ON UPDATE CASCADE;
