// Creates and removes the per-run database and Redis key prefix. Jest's global setup and
// teardown (jest-global-*.mjs) run it through tsx, since they are loaded outside jest's ESM
// transform. `setup` prints the run's environment as JSON; `teardown` reads it from the env.
import { loadGatewayConfig } from "@catalog/config/gateway";
import { newKeyringSpec } from "@catalog/db";
import { createTestDatabase, dropTestDatabase } from "./test-database.js";
import { deleteRedisPrefix, newRedisPrefix } from "./redis-prefix.js";

const [command] = process.argv.slice(2);
if (command === "setup") {
  const base = loadGatewayConfig();
  const env = {
    DATABASE_URL: await createTestDatabase(base.DATABASE_URL),
    REDIS_PREFIX: newRedisPrefix(),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    /** A key of this run's own for destination credentials. */
    CREDENTIALS_KEYS: newKeyringSpec("test"),
  };
  process.stdout.write(JSON.stringify(env));
} else if (command === "teardown") {
  const { DATABASE_URL, REDIS_PREFIX } = process.env;
  if (DATABASE_URL) await dropTestDatabase(DATABASE_URL);
  if (REDIS_PREFIX) await deleteRedisPrefix(loadGatewayConfig(), REDIS_PREFIX);
} else {
  process.stderr.write("usage: test-run.ts setup|teardown\n");
  process.exitCode = 2;
}
