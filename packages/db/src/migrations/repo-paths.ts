import { fileURLToPath } from "node:url";

// This file sits at packages/db/src/migrations, four levels below the repository root.
const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

export const defaultMigrationsDir = `${repoRoot}prisma/migrations`;
export const defaultSchemaPath = `${repoRoot}prisma/schema.prisma`;
