// What every operator command is made of: its flags, its usage line and how it reports misuse.
import type { GatewayConfig } from "@catalog/config/gateway";
import type { Db } from "@catalog/db";

export type Flags = Record<string, string | boolean | undefined>;

/** Misuse of the command line: exit code 2 and the message, no stack. */
export class UsageError extends Error {
  override name = "UsageError";
}

export function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== "string" || value.trim() === "")
    throw new UsageError(`--${name} is required`);
  return value;
}

export interface Command {
  usage: string;
  run(
    db: Db,
    flags: Flags,
    readSecret: () => Promise<string>,
    config: GatewayConfig,
  ): Promise<{ text: string; json: unknown }>;
}
