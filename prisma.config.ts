// Configuration for the Prisma CLI (`prisma generate`, and `prisma migrate deploy` on machines
// that can fetch Prisma's schema engine). This project applies migrations itself through the
// WebAssembly schema engine: see packages/db/src/migrations.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/catalog" },
});
