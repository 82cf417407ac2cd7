// A run's failures in a merchant's words, grouped by what they need (the product's data, a
// store's settings or access, or only time), each with a link to where it is fixed; the
// messages as the stores gave them, and the ids, behind "Details".
import { Link } from "@tanstack/react-router";
import type { ChannelInfo, PublishRun } from "@catalog/gateway/api-types";
import { failureText, type Failure } from "../../ui/failure-words";
import type { Cell } from "./CellBadge";

/** Products named (and linked) per group before "and N more". */
const SHOWN = 5;

interface Group {
  key: string;
  failure: Failure | null;
  cells: Cell[];
}

const isProblem = (c: Cell) => c.status === "failed" || c.status === "dead";

/** A product's failures are one group across stores; a store's are one group per store. */
function groupsOf(cells: Cell[]): Group[] {
  const groups = new Map<string, Group>();
  for (const c of cells.filter(isProblem)) {
    const f = c.failure;
    const key = f
      ? [f.kind, f.field, f.reason, f.kind === "product" ? "" : c.destinationAccountId].join("|")
      : `message|${c.error ?? ""}`;
    const group = groups.get(key) ?? { key, failure: f, cells: [] };
    group.cells.push(c);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.cells.length - a.cells.length);
}

const listed = (names: string[]) =>
  names.length <= 2 ? names.join(" and ") : `${names.length.toLocaleString()} products`;

export function FailureGroups({
  run,
  channels,
  isOwner,
}: {
  run: PublishRun;
  channels: ChannelInfo[] | undefined;
  isOwner: boolean;
}) {
  const groups = groupsOf(run.cells);
  if (groups.length === 0) return null;
  const productOf = new Map(run.products.map((p) => [p.id, p]));
  const storeOf = new Map(run.destinations.map((d) => [d.id, d]));
  return (
    <section className="card section" aria-labelledby="failures-h">
      <div className="card-header">
        <h2 id="failures-h">What failed, and how to fix it</h2>
      </div>
      <ul className="failure-groups">
        {groups.map((g) => {
          const productIds = [...new Set(g.cells.map((c) => c.productId))];
          const storeIds = [...new Set(g.cells.map((c) => c.destinationAccountId))];
          const titles = productIds.map((id) => productOf.get(id)?.title ?? "A deleted product");
          const stores = storeIds.map((id) => storeOf.get(id)?.name ?? "A store");
          const channel = storeOf.get(storeIds[0] ?? "")?.channel;
          const said = g.failure
            ? failureText(
                g.failure,
                {
                  products: listed(titles),
                  many: productIds.length > 1,
                  store: stores.join(" and "),
                },
                channels?.find((c) => c.channel === channel),
              )
            : { text: g.cells[0]?.error ?? "Failed without a message", fix: null };
          return (
            <li key={g.key}>
              <span className="badge badge-bad badge-plain failure-count">
                {g.cells.length.toLocaleString()}
              </span>
              <div className="failure-body">
                <p className="failure-message">{said.text}</p>
                {said.fix === "product" || said.fix === null ? (
                  <p className="small">
                    {productIds.slice(0, SHOWN).map((id, n) => (
                      <span key={id}>
                        {n > 0 ? ", " : ""}
                        {productOf.get(id)?.deleted ? (
                          titles[n]
                        ) : (
                          <Link
                            to="/products/$id"
                            params={{ id }}
                            search={said.fix === "product" ? { edit: 1 } : {}}
                          >
                            {said.fix === "product" ? `Edit ${titles[n]}` : titles[n]}
                          </Link>
                        )}
                      </span>
                    ))}
                    {productIds.length > SHOWN
                      ? ` and ${(productIds.length - SHOWN).toLocaleString()} more`
                      : ""}
                  </p>
                ) : null}
                {said.fix === "store" ? (
                  <p className="small">
                    {isOwner ? (
                      storeIds.map((id, n) => (
                        <span key={id}>
                          {n > 0 ? ", " : ""}
                          <Link to="/destinations" search={{}} hash={`dest-${id}`}>
                            Open {stores[n]}’s settings
                          </Link>
                        </span>
                      ))
                    ) : (
                      <>Your organisation’s owner manages the stores.</>
                    )}
                  </p>
                ) : null}
                <details className="failure-details small">
                  <summary>Details</summary>
                  <ul>
                    {g.cells.map((c) => (
                      <li key={c.syncLogId}>
                        <span className="mono">{c.error ?? "no message"}</span> (product{" "}
                        <span className="mono">{c.productId}</span>, store{" "}
                        <span className="mono">{c.destinationAccountId}</span>)
                      </li>
                    ))}
                  </ul>
                </details>
              </div>
            </li>
          );
        })}
      </ul>
      <p className="small muted failure-help">
        Once a product or a store is fixed, “Retry” offers its failures again. Failures that only
        need time (a store that could not be reached) can be retried at once.
      </p>
    </section>
  );
}
