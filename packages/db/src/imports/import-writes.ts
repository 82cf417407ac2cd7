import { randomUUID } from "node:crypto";
import type pg from "pg";
import { arrayLiteral, copyRows, type CopyRow } from "../copy-text.js";
import type { FieldChanges } from "../field-diff.js";
import type { ProductSource } from "../generated/enums.js";
import type { ProductFields } from "../product-view.js";
import type { Actor } from "../products.js";

/** A product an import writes: its id, its fields after the import, their provenance, what changed. */
export interface ProductWrite {
  id: string;
  fields: ProductFields;
  provenance: Record<string, unknown>;
  changes: FieldChanges;
}

export interface WriteContext {
  orgId: string;
  source: ProductSource;
  actor: Actor;
  now: Date;
}

const FIELD_COLUMNS = `title, sku, description, price_amount, price_currency, images, brand, gtin, mpn,
  availability, variants, attributes, provenance, source_url, quantity`;

/** The transaction's table of the batch's changed products (gone at its end). */
const UPDATES = "pg_temp.import_updates";
const UPDATES_TABLE = `CREATE TEMP TABLE IF NOT EXISTS import_updates (id uuid NOT NULL, title text,
  sku text, description text, price_amount numeric, price_currency text, images text[], brand text,
  gtin text, mpn text, availability text, variants jsonb, attributes jsonb, provenance jsonb,
  source_url text, quantity int) ON COMMIT DROP`;
const ASSIGNMENTS = `title = v.title, sku = v.sku, description = v.description,
  price_amount = v.price_amount, price_currency = v.price_currency, images = v.images,
  brand = v.brand, gtin = v.gtin, mpn = v.mpn, availability = v.availability,
  variants = v.variants, attributes = v.attributes, provenance = v.provenance,
  source_url = v.source_url, quantity = v.quantity`;

/** A product's FIELD_COLUMNS values, as COPY takes them. */
function fieldValues({ fields: f, provenance }: ProductWrite): CopyRow {
  return [
    f.title,
    f.sku,
    f.description,
    f.price?.amount ?? null,
    f.price?.currency ?? null,
    arrayLiteral(f.images),
    f.brand,
    f.gtin,
    f.mpn,
    f.availability,
    JSON.stringify(f.variants),
    JSON.stringify(f.attributes),
    JSON.stringify(provenance),
    f.sourceUrl,
    f.quantity,
  ];
}

/**
 * Writes a batch's new products, its changed ones and one `imported` history entry for each,
 * with COPY on the connection of the transaction they belong to (`conn`, see
 * transactionConnection): each product is written once, straight into its table, and its
 * values never become statement parameters (nor pass through Prisma, whose debug module keeps
 * the arguments of its last 100 calls). New products and history rows go in by COPY alone;
 * changed ones by COPY into a temporary table and one UPDATE from it, which also empties it.
 */
export async function writeProducts(
  conn: pg.ClientBase,
  creates: ProductWrite[],
  updates: ProductWrite[],
  { orgId, source, actor, now }: WriteContext,
): Promise<void> {
  const at = now.toISOString();
  if (creates.length > 0)
    await copyRows(
      conn,
      `products (id, org_id, ${FIELD_COLUMNS}, source, version, created_at, updated_at)`,
      creates,
      (p) => [p.id, orgId, ...fieldValues(p), source, 1, at, at],
    );
  if (updates.length > 0) {
    await conn.query(UPDATES_TABLE);
    await copyRows(conn, `${UPDATES} (id, ${FIELD_COLUMNS})`, updates, (p) => [
      p.id,
      ...fieldValues(p),
    ]);
    await conn.query(
      `WITH v AS (DELETE FROM ${UPDATES} RETURNING *)
       UPDATE products AS p SET ${ASSIGNMENTS}, version = p.version + 1, updated_at = $2
       FROM v WHERE p.id = v.id AND p.org_id = $1`,
      [orgId, at],
    );
  }
  const changed = [...creates, ...updates];
  if (changed.length > 0)
    await copyRows(
      conn,
      "product_history (id, org_id, product_id, at, actor_type, actor_id, action, changes)",
      changed,
      (p) => [
        randomUUID(),
        orgId,
        p.id,
        at,
        actor.type,
        actor.id,
        "imported",
        JSON.stringify(p.changes),
      ],
    );
}
