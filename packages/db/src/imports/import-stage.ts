import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { connectionStringOf, type Db } from "../client.js";

/**
 * A staging table for one import: a persisted import's planned products, or a preview's rows.
 * Each batch is streamed into it with COPY on a connection of its own (committed at once, so the
 * import's transaction sees it), and the transaction writes from it with one `INSERT ... SELECT`
 * or `UPDATE ... FROM` per table and batch. The bulk values thus never pass through Prisma
 * (whose debug module keeps the arguments of its last 100 calls: with a batch's arrays as
 * arguments, over 100 MB held for as long as the import ran) and never become per-row
 * parameters.
 *
 * The table is UNLOGGED (nothing of it must survive a crash) and named with the second it was
 * made in: `drop()` removes it on every path of the import, and a table left by a process that
 * died is removed by the next import that starts once it is older than STALE_AFTER_MS.
 */
/** What a staging table holds: its columns (after `batch`) and their SQL types. */
export interface StageShape {
  columns: readonly string[];
  types: string;
}

/** Planned products: written to products and product_history (product-import.ts). */
export const PRODUCT_STAGE: StageShape = {
  columns: [
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
  ],
  types: `kind char(1) NOT NULL, id uuid NOT NULL, title text, sku text, description text,
  price_amount numeric, price_currency text, images jsonb, brand text, gtin text, mpn text,
  availability text, variants jsonb, attributes jsonb, provenance jsonb, source_url text,
  quantity int, changes jsonb`,
};

/** Previewed rows: written to import_rows (import-rows.ts). */
export const ROW_STAGE: StageShape = {
  columns: [
    "seq",
    "row",
    "url",
    "outcome",
    "error",
    "match_product_id",
    "match_by",
    "match_title",
    "match_sku",
    "changes",
    "product",
    "item",
    "dropped_images",
  ],
  types: `seq int NOT NULL, row int NOT NULL, url text, outcome text NOT NULL, error text,
  match_product_id uuid, match_by text, match_title text, match_sku text, changes jsonb,
  product jsonb, item jsonb, dropped_images jsonb`,
};

/**
 * Older than this, a staging table is a dead process's: an import's transaction lasts 15 minutes
 * at most, and a preview of the largest document a few minutes.
 */
export const STALE_AFTER_MS = 6 * 60 * 60_000;
const PREFIX = "import_stage_";

/** One staged row: its values in its shape's column order (text, number or null). */
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
  private client: pg.Client | null;

  private constructor(
    private readonly connectionString: string,
    private readonly shape: StageShape,
    client: pg.Client,
    /** The table's name (generated here, safe to put in SQL as it is). */
    readonly table: string,
  ) {
    this.client = client;
  }

  /** Makes the staging table (after removing stale ones) on a connection of its own. */
  static async open(db: Db, shape: StageShape): Promise<ImportStage> {
    const url = connectionStringOf(db);
    const client = await connect(url);
    try {
      await dropStale(client, Date.now());
      const table = `${PREFIX}${Math.floor(Date.now() / 1000)}_${randomBytes(6).toString("hex")}`;
      await client.query(
        `CREATE UNLOGGED TABLE ${table} (batch int NOT NULL, ${shape.types}) WITH (autovacuum_enabled = false)`,
      );
      await client.query(`CREATE INDEX ON ${table} (batch)`);
      return new ImportStage(url, shape, client, table);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Streams one batch's rows into the table with COPY; answers the batch's number. A connection
   * lost on the way is opened again at the next call (a preview waits out an outage and tries
   * the batch again, under a new number).
   */
  async put(rows: StageRow[]): Promise<number> {
    const batch = ++this.batches;
    const prefix = `${batch}\t`;
    // A chunk every 256 KB of text: COPY takes them as they come.
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
    this.client ??= await connect(this.connectionString);
    const client = this.client;
    try {
      await pipeline(
        Readable.from(chunks),
        client.query(
          copyFrom(`COPY ${this.table} (batch, ${this.shape.columns.join(", ")}) FROM STDIN`),
        ),
      );
    } catch (error) {
      this.client = null;
      await client.end().catch(() => undefined);
      throw error;
    }
    return batch;
  }

  /** Drops the table and closes the connection. */
  async drop(): Promise<void> {
    const client = this.client ?? (await connect(this.connectionString));
    this.client = null;
    try {
      await client.query(`DROP TABLE IF EXISTS ${this.table}`);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

async function connect(connectionString: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString });
  // A connection lost while idle is an error event: without a listener it would end the process.
  client.on("error", () => undefined);
  await client.connect();
  return client;
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
