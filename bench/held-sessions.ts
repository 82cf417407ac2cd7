import pg from "pg";
import { randomToken, sha256 } from "@catalog/db";

/**
 * Opens `count` more sessions of the member `email` in the database and checks each once through
 * the gateway (16 at a time), so that its session cache holds them as a busy instance's would.
 * Returns the seconds it took.
 */
export async function holdSessions(
  gatewayUrl: string,
  databaseUrl: string,
  email: string,
  count: number,
): Promise<number> {
  const started = performance.now();
  const tokens = Array.from({ length: count }, () => randomToken());
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO sessions (id, token_hash, user_id, expires_at)
       SELECT gen_random_uuid(), hash, u.id, now() + interval '1 day'
       FROM unnest($1::text[]) AS hash, users u WHERE u.email = $2`,
      [tokens.map(sha256), email],
    );
  } finally {
    await client.end();
  }
  let next = 0;
  const checker = async () => {
    while (next < tokens.length) {
      const token = tokens[next++]!;
      const response = await fetch(`${gatewayUrl}/api/auth/session`, {
        headers: { cookie: `sid=${token}` },
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`a held session answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, checker));
  return (performance.now() - started) / 1000;
}
