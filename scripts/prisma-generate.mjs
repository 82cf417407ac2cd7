// `prisma generate` without network: every Prisma CLI command first tries to download the
// schema engine binary unless PRISMA_SCHEMA_ENGINE_BINARY names an existing file. Generation
// does not use that engine, so any existing file will do.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: "1" };
const result = spawnSync("pnpm", ["--filter", "@catalog/db", "exec", "prisma", "generate", "--schema", `${root}prisma/schema.prisma`, "--config", `${root}prisma.config.ts`], { stdio: "inherit", env, cwd: root });
process.exit(result.status ?? 1);
