// The pg driver adapter as the schema engine needs it. @prisma/adapter-pg serves Prisma Client
// well but falls short of the engine in two ways, both mended here on the adapters it hands out.
import { PrismaPg } from "@prisma/adapter-pg";

type PgAdapter = Awaited<ReturnType<PrismaPg["connect"]>>;
type Pool = ReturnType<PgAdapter["underlyingDriver"]>;

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

// The engine's catalog queries return PostgreSQL's internal one-byte "char" type (pg_class.relkind,
// pg_constraint.contype, ...), which the adapter refuses ("Column type 'char' could not be
// deserialized"), so every introspection and diff against a live database fails. pg already
// hands those values over as strings; relabelling the column as text lets the adapter take them.
function readCharAsText(pool: Pool): void {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const relabel = (result: unknown): unknown => {
    for (const each of Array.isArray(result) ? result : [result]) {
      for (const field of (each as { fields?: { dataTypeID: number }[] } | undefined)?.fields ??
        []) {
        if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
      }
    }
    return result;
  };
  (pool as { query: unknown }).query = (...args: unknown[]) => {
    const pending = query(...args);
    return pending instanceof Promise ? pending.then(relabel) : pending;
  };
}

// The adapter's executeScript splits a script at every ";" (even inside a string literal or a
// function body) and runs the pieces one by one, so a failing migration is left half applied.
// Prisma's native engine sends the whole script as one simple query, which PostgreSQL runs as a
// single implicit transaction; doing the same keeps both runners equivalent.
function runScriptsWhole(adapter: PgAdapter): void {
  const pool = adapter.underlyingDriver();
  adapter.executeScript = async (script: string) => {
    try {
      await pool.query(script);
    } catch (error) {
      adapter["onError"](error);
    }
  };
}

/**
 * The engine does not reliably dispose the adapters it connects (each owns a pg.Pool), so each
 * one handed out is kept, for `disposeAll`. Disposing twice would end a pool twice, which pg
 * rejects, hence the memoised dispose.
 */
export class EnginePg extends PrismaPg {
  private readonly opened: PgAdapter[] = [];

  override async connect(): Promise<PgAdapter> {
    return this.track(await super.connect());
  }

  override async connectToShadowDb(): Promise<PgAdapter> {
    return this.track(await super.connectToShadowDb());
  }

  async disposeAll(): Promise<void> {
    await Promise.allSettled(this.opened.map((adapter) => adapter.dispose()));
  }

  private track(adapter: PgAdapter): PgAdapter {
    readCharAsText(adapter.underlyingDriver());
    runScriptsWhole(adapter);
    const dispose = adapter.dispose.bind(adapter);
    let disposed: Promise<void> | undefined;
    adapter.dispose = () => (disposed ??= dispose());
    this.opened.push(adapter);
    return adapter;
  }
}
