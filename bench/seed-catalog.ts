import { createDb, createOrg, createUser } from "@catalog/db";
import { ADJECTIVES, BRANDS, COLOURS, DESCRIPTIONS, MATERIALS, NOUNS } from "./catalog-words.js";
import { seededRandom, uniformPicker, zipfPicker } from "./seeded-random.js";
import pg from "pg";

export interface SeededCatalog {
  orgId: string;
  email: string;
  password: string;
  products: number;
  seconds: number;
  vacuumSeconds: number;
}

const BATCH = 5_000;
const DAY_MS = 86_400_000;

// One array per column, expanded server-side by unnest: one round trip per batch, no Prisma
// createMany (about 2% of COPY speed here, see measured-here.md).
const INSERT = `
  INSERT INTO products (
    id, org_id, title, sku, description, price_amount, price_currency, images, brand, availability,
    variants, attributes, source, version, created_at, updated_at
  )
  SELECT gen_random_uuid(), $1::uuid, t.title, t.sku, t.description, t.price::numeric, t.currency,
         string_to_array(t.images, ' '), t.brand, t.availability, t.variants::jsonb, t.attributes::jsonb,
         t.source::"ProductSource", t.version,
         (t.created_at::timestamptz AT TIME ZONE 'UTC'), (t.updated_at::timestamptz AT TIME ZONE 'UTC')
  FROM unnest(
    $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
    $10::text[], $11::text[], $12::text[], $13::int[], $14::text[], $15::text[]
  ) AS t(title, sku, description, price, currency, images, brand, availability, variants, attributes,
         source, version, created_at, updated_at)`;

type Columns = [
  string[],
  string[],
  string[],
  string[],
  string[],
  string[],
  string[],
  string[],
  string[],
  string[],
  string[],
  number[],
  string[],
  string[],
];

function productRows(from: number, to: number, random: () => number, now: number): Columns {
  const adjective = uniformPicker(ADJECTIVES, random);
  const material = zipfPicker(MATERIALS, 1, random);
  const noun = zipfPicker(NOUNS, 1.5, random);
  const colour = zipfPicker(COLOURS, 0.8, random);
  const brand = uniformPicker(BRANDS, random);
  const sentence = uniformPicker(DESCRIPTIONS, random);
  const columns: Columns = [[], [], [], [], [], [], [], [], [], [], [], [], [], []];
  for (let i = from; i < to; i++) {
    const mat = material();
    const col = colour();
    const base = `${mat} ${noun()}`;
    const title = `${random() < 0.7 ? `${adjective()} ` : ""}${base}, ${col} ${1 + Math.floor(random() * 999)}`;
    const sku = `SKU-${String(i).padStart(6, "0")}`;
    const price = (4.99 + Math.floor(random() * 50_000) / 100).toFixed(2);
    const imageCount = 1 + Math.floor(random() * 3);
    const images = Array.from(
      { length: imageCount },
      (_, n) => `https://cdn.example.com/p/${sku.toLowerCase()}-${n + 1}.jpg`,
    );
    const variants =
      random() < 0.4
        ? ["S", "M", "L"].slice(0, 1 + Math.floor(random() * 3)).map((size) => ({
            sku: `${sku}-${size}`,
            title: `${title} (${size})`,
            price: { amount: price, currency: "EUR" },
            options: { size },
            gtin: null,
            availability: "InStock",
            image: null,
          }))
        : [];
    const updated = now - Math.floor(random() * 365 * DAY_MS);
    const created = updated - Math.floor(random() * 180 * DAY_MS);
    const r = random();
    columns[0].push(title);
    columns[1].push(sku);
    columns[2].push(`${title}. ${sentence()} ${sentence()}`);
    columns[3].push(price);
    columns[4].push(r < 0.8 ? "EUR" : r < 0.9 ? "USD" : "GBP");
    columns[5].push(images.join(" "));
    columns[6].push(brand());
    columns[7].push(r < 0.8 ? "InStock" : r < 0.95 ? "OutOfStock" : "PreOrder");
    columns[8].push(JSON.stringify(variants));
    columns[9].push(
      JSON.stringify({ material: mat, colour: col, weightKg: Math.round(random() * 200) / 10 }),
    );
    columns[10].push(r < 0.5 ? "scrape" : r < 0.7 ? "document" : r < 0.8 ? "extension" : "api");
    columns[11].push(1 + Math.floor(random() * 4));
    columns[12].push(new Date(created).toISOString());
    columns[13].push(new Date(updated).toISOString());
  }
  return columns;
}

async function insertProducts(client: pg.Client, orgId: string, count: number): Promise<void> {
  const random = seededRandom(20_240_601);
  const now = Date.now();
  // Builds the next batch while PostgreSQL inserts the current one: the two then share both cores.
  let inserting: Promise<unknown> = Promise.resolve();
  for (let from = 0; from < count; from += BATCH) {
    const rows = productRows(from, Math.min(from + BATCH, count), random, now);
    await inserting;
    inserting = client.query(INSERT, [orgId, ...rows]);
  }
  await inserting;
}

/** One org, one member who can sign in, and `count` products, then statistics for the planner. */
export async function seedCatalog(databaseUrl: string, count: number): Promise<SeededCatalog> {
  const email = "bench-member@bench.local";
  const password = "bench-password-1234";
  const db = createDb(databaseUrl);
  let orgId: string;
  try {
    const org = await createOrg(db, "Bench Org");
    await createUser(db, { orgId: org.id, email, password, role: "member" });
    orgId = org.id;
  } finally {
    await db.$disconnect();
  }

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const started = performance.now();
    await insertProducts(client, orgId, count);
    const seconds = (performance.now() - started) / 1000;
    // VACUUM as well as ANALYZE: autovacuum would otherwise start on the fresh rows in the
    // middle of a round, and index-only scans need the visibility map it sets.
    await client.query("VACUUM (ANALYZE) products");
    const vacuumSeconds = (performance.now() - started) / 1000 - seconds;
    return { orgId, email, password, products: count, seconds, vacuumSeconds };
  } finally {
    await client.end();
  }
}

/** How many rows each search term matches, with the same predicate the API uses. */
export async function countMatches(
  databaseUrl: string,
  orgId: string,
  terms: string[],
): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const counts = new Map<string, number>();
    for (const term of terms) {
      const { rows } = await client.query<{ n: string }>(
        "SELECT count(*) AS n FROM products WHERE org_id = $1 AND (title ILIKE $2 OR sku ILIKE $2)",
        [orgId, `%${term}%`],
      );
      counts.set(term, Number(rows[0]?.n ?? 0));
    }
    return counts;
  } finally {
    await client.end();
  }
}
