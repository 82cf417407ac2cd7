-- AlterTable
ALTER TABLE "imports" ADD COLUMN     "mapping_source" VARCHAR(16),
ADD COLUMN     "mapping_template_id" UUID,
ADD COLUMN     "mapping_template_name" VARCHAR(80);

-- CreateTable
CREATE TABLE "import_mappings" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "name" VARCHAR(80) NOT NULL,
    "headers" TEXT[],
    "header_key" TEXT NOT NULL,
    "mapping" JSONB NOT NULL,
    "created_by" UUID,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMP(3),

    CONSTRAINT "import_mappings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "import_mappings_org_id_header_key_key" ON "import_mappings"("org_id", "header_key");

-- AddForeignKey
ALTER TABLE "import_mappings" ADD CONSTRAINT "import_mappings_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
