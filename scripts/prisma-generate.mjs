// `prisma generate` without network: every Prisma CLI command first tries to download the
// schema engine binary unless PRISMA_SCHEMA_ENGINE_BINARY names an existing file. Generation
// does not use that engine, so any existing file will do.
//
// Skipped when the schema, the config and the Prisma version are those of the last generation,
// so that a build run beside the tests (which import the client) never rewrites it under them.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const output = `${root}packages/db/src/generated`;
const prismaVersion = createRequire(`${root}package.json`)("prisma/package.json").version;
const hash = createHash("sha256")
  .update(readFileSync(`${root}prisma/schema.prisma`))
  .update("\0")
  .update(readFileSync(`${root}prisma.config.ts`))
  .update("\0")
  .update(prismaVersion)
  .digest("hex");
const hashFile = `${output}/.source-hash`;
if (
  !process.argv.includes("--force") &&
  existsSync(`${output}/client.ts`) &&
  existsSync(hashFile) &&
  readFileSync(hashFile, "utf8") === hash
) {
  process.exit(0);
}
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
};
const result = spawnSync(
  "pnpm",
  [
    "exec",
    "prisma",
    "generate",
    "--schema",
    `${root}prisma/schema.prisma`,
    "--config",
    `${root}prisma.config.ts`,
  ],
  { stdio: "inherit", env, cwd: root },
);
if (result.status === 0) writeFileSync(hashFile, hash);
process.exit(result.status ?? 1);
