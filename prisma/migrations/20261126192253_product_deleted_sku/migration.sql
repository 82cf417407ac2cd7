-- AlterTable
ALTER TABLE "products" ADD COLUMN     "deleted_sku" TEXT;
