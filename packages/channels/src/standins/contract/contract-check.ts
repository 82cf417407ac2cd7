// The sales channels' own published contracts (../shared/contracts beside the project), used to
// check every request an adapter sends: OpenAPI files through openapi-backend's request
// validator, Shopify's GraphQL schema through graphql-js. Stand-ins started with a contract
// answer a request that breaks it with 400 and keep it in `violations`, so every test that
// publishes through a stand-in is also a contract test.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface ContractViolation {
  /** "PUT /sell/inventory/v1/inventory_item/ABC" or "graphql mutation ProductSet". */
  request: string;
  problems: string[];
}

/**
 * The contracts folder of ../shared, or null where it is absent (a user's own clone): contract
 * tests then skip.
 */
export function sharedContractsDir(): string | null {
  const fromEnv = process.env.SHARED_CONTRACTS_DIR;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../../../../..");
  const dir = join(repoRoot, "../shared/contracts");
  return existsSync(dir) ? dir : null;
}
