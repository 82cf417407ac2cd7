import { parseArgs } from "node:util";
import { ConnectError } from "@catalog/channels";
import { ConfigError } from "@catalog/config";
import { loadGatewayConfig } from "@catalog/config/gateway";
import { ServiceError, createDb } from "@catalog/db";
import { COMMANDS } from "./commands.js";
import { UsageError } from "./commands-kit.js";

const HELP = `Operator commands (DATABASE_URL selects the database):
${Object.values(COMMANDS)
  .map((c) => `  ${c.usage}`)
  .join("\n")}
Add --json for machine-readable output.`;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(
      `${name && name !== "help" && name !== "--help" ? `Unknown command "${name}".\n` : ""}${HELP}\n`,
    );
    return name === "help" || name === "--help" ? 0 : 2;
  }
  const { values: flags } = parseArgs({
    args: rest,
    strict: true,
    options: {
      name: { type: "string" },
      org: { type: "string" },
      email: { type: "string" },
      role: { type: "string" },
      password: { type: "string" },
      "password-stdin": { type: "boolean" },
      id: { type: "string" },
      json: { type: "boolean" },
      "standin-url": { type: "string" },
      channel: { type: "string" },
      shop: { type: "string" },
      "store-url": { type: "string" },
      "consumer-key": { type: "string" },
    },
  });
  const config = loadGatewayConfig();
  const db = createDb(config.DATABASE_URL, { poolSize: 2 });
  try {
    const result = await command.run(db, flags, readStdin, config);
    process.stdout.write(flags.json ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
    return 0;
  } finally {
    await db.$disconnect();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const usage =
    error instanceof UsageError ||
    (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") === true;
  const known =
    usage ||
    error instanceof ServiceError ||
    error instanceof ConnectError ||
    error instanceof ConfigError;
  process.stderr.write(
    `error: ${known ? (error as Error).message : String((error as Error).stack ?? error)}\n`,
  );
  process.exitCode = usage ? 2 : 1;
}
