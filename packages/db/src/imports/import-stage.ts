import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { connectionStringOf, type Db } from "../client.js";

/**
 * A staging table for one persisted import: each batch's planned products are streamed into it
 * with COPY on a connection of its own (committed at once, so the import's transaction sees
 * them), and the transaction writes products and history from it with one `INSERT ... SELECT`
 * or `UPDATE ... FROM` a batch. The bulk values thus never pass through Prisma (whose debug
 * history keeps the arguments of its last 100 calls: with a batch's arrays as arguments, over
 * 100 MB held whatever the file's size) and never become per-row parameters.
 *
 * The table is UNLOGGED (nothing of it must survive a crash) and named with the second it was
 * made in: `drop()` removes it on every path of the import, and a table left by a process that
 * died is removed by the next import that starts once it is older than STALE_AFTER_MS (longer
 * than any import's transaction may stay open).
 */
export const STAGE_COLUMNS = [
  "batch",
  "kind",
  "id",
  "title",
  "sku",
  "description",
  "price_amount",
  "price_currency",
  "images",
  "brand",
  "gtin",
  "mpn",
  "availability",
  "variants",
  "attributes",
  "provenance",
  "source_url",
  "quantity",
  "changes",
] as const;

const STAGE_TYPES = `batch int NOT NULL, kind char(1) NOT NULL, id uuid NOT NULL, title text, sku text,
  description text, price_amount numeric, price_currency text, images jsonb, brand text, gtin text,
  mpn text, availability text, variants jsonb, attributes jsonb, provenance jsonb, source_url text,
  quantity int, changes jsonb`;

/** Older than this, a staging table is a dead process's: the longest import transaction is 15 min. */
export const STALE_AFTER_MS = 60 * 60_000;
const PREFIX = "import_stage_";

/** One staged row: its values in STAGE_COLUMNS order (text, or null). */
export type StageRow = (string | number | null)[];

/** A value in COPY's text format: backslash, newline, carriage return and tab escaped. */
function copyText(value: string | number | null): string {
  if (value === null) return "\\N";
  const text = typeof value === "number" ? String(value) : value;
  return /[\\\n\r\t]/.test(text)
    ? text.replace(/[\\\n\r\t]/g, (c) =>
        c === "\\" ? "\\\\" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\t",
      )
    : text;
}

export class ImportStage {
  private batches = 0;

  private constructor(
    private readonly client: pg.Client,
    /** The table's name (generated here, safe to put in SQL as it is). */
    readonly table: string,
  ) {}

  /** Makes the staging table (after removing stale ones) on a connection of its own. */
  static async open(db: Db): Promise<ImportStage> {
    const client = new pg.Client({ connectionString: connectionStringOf(db) });
    await client.connect();
    try {
      await dropStale(client, Date.now());
      const table = `${PREFIX}${Math.floor(Date.now() / 1000)}_${randomBytes(6).toString("hex")}`;
      await client.query(
        `CREATE UNLOGGED TABLE ${table} (${STAGE_TYPES}) WITH (autovacuum_enabled = false)`,
      );
      await client.query(`CREATE INDEX ON ${table} (batch)`);
      return new ImportStage(client, table);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  /** Streams one batch's rows into the table with COPY; answers the batch's number. */
  async put(rows: StageRow[]): Promise<number> {
    const batch = ++this.batches;
    const prefix = `${batch}\t`;
    // A chunk every few hundred rows: COPY takes them as they come, and nothing holds the batch twice.
    const chunks = (function* () {
      let text = "";
      for (const row of rows) {
        text += prefix + row.map(copyText).join("\t") + "\n";
        if (text.length > 256 * 1024) {
          yield text;
          text = "";
        }
      }
      if (text) yield text;
    })();
    await pipeline(
      Readable.from(chunks),
      this.client.query(copyFrom(`COPY ${this.table} (${STAGE_COLUMNS.join(", ")}) FROM STDIN`)),
    );
    return batch;
  }

  /** Drops the table and closes the connection (safe to call more than once). */
  async drop(): Promise<void> {
    try {
      await this.client.query(`DROP TABLE IF EXISTS ${this.table}`);
    } finally {
      await this.client.end().catch(() => undefined);
    }
  }
}

/** Drops staging tables made more than STALE_AFTER_MS ago (by a process that died meanwhile). */
async function dropStale(client: pg.Client, now: number): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class WHERE relkind = 'r' AND relname LIKE '${PREFIX}%'`,
  );
  for (const { name } of rows) {
    const made = Number(/^import_stage_(\d+)_/.exec(name)?.[1]) * 1000;
    if (Number.isFinite(made) && now - made > STALE_AFTER_MS)
      await client.query(`DROP TABLE IF EXISTS ${name}`);
  }
}
