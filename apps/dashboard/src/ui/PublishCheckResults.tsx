// The publish screen's "Check first": what a dry run found, store by store. A store's own
// problems (settings, a wait) are said once for the store; each product's are listed under it.
import { forwardRef } from "react";
import { Link } from "@tanstack/react-router";
import { useQueries } from "@tanstack/react-query";
import type { ChannelInfo, Destination, PublishCheck } from "@catalog/gateway/api-types";
import { qk } from "../api/client";
import * as endpoints from "../api/endpoints";
import type { ChannelNamer } from "../api/queries";
import { isStoreProblem, problemWords, type Problem } from "./failure-words";
import { StatusBadge } from "./StatusBadge";
import { countOf } from "./format";

/** Products named per store before "and N more". */
const SHOWN_PER_STORE = 10;

function ProblemList({ problems, info }: { problems: Problem[]; info: ChannelInfo | undefined }) {
  return (
    <ul className="check-problems">
      {problems.map((p) => {
        const { label, text } = problemWords(p, info);
        return (
          <li key={`${p.field}:${p.message}`}>
            <span className="check-field">{label}:</span> {text}
          </li>
        );
      })}
    </ul>
  );
}

interface Props {
  check: PublishCheck;
  destinations: Destination[];
  channels: ChannelInfo[] | undefined;
  channelName: ChannelNamer;
  /** Titles already at hand (the products named at the top of the screen). */
  knownTitles: Map<string, string>;
  isOwner: boolean;
}

export const PublishCheckResults = forwardRef<HTMLHeadingElement, Props>(
  function PublishCheckResults(
    { check, destinations, channels, channelName, knownTitles, isOwner },
    headingRef,
  ) {
    const storeIds = [...new Set(check.items.map((i) => i.destinationAccountId))];
    const stores = storeIds.map((id) => {
      const items = check.items.filter((i) => i.destinationAccountId === id);
      const failing = items.filter((i) => !i.ok);
      // Said for the store once when every product has it (settings, a wait).
      const shared = (items[0]?.problems ?? []).filter(
        (p) =>
          isStoreProblem(p) &&
          items.every((i) =>
            i.problems.some((q) => q.field === p.field && q.message === p.message),
          ),
      );
      const isShared = (p: Problem) =>
        shared.some((q) => q.field === p.field && q.message === p.message);
      const products = failing
        .map((i) => ({ id: i.productId, problems: i.problems.filter((p) => !isShared(p)) }))
        .filter((p) => p.problems.length > 0);
      const destination = destinations.find((d) => d.id === id);
      const channel = items[0]?.channel ?? destination?.channel ?? "";
      return {
        id,
        name: destination?.name ?? id,
        channel,
        info: channels?.find((c) => c.channel === channel),
        total: items.length,
        failing: failing.length,
        shared,
        products,
      };
    });

    // Titles of the products named below that the screen does not show already.
    const wanted = [
      ...new Set(stores.flatMap((s) => s.products.slice(0, SHOWN_PER_STORE).map((p) => p.id))),
    ].filter((id) => !knownTitles.has(id));
    const details = useQueries({
      queries: wanted.map((id) => ({
        queryKey: qk.products.detail(id),
        queryFn: () => endpoints.products.get(id),
        staleTime: 60_000,
      })),
    });
    const titleOf = (id: string) =>
      knownTitles.get(id) ??
      details[wanted.indexOf(id)]?.data?.title ??
      `Product ${id.slice(0, 8)}…`;

    const { checked, failing } = check.summary;
    const listings = (n: number) => countOf(n, "listing");
    return (
      <section className="card section check-results" aria-labelledby="publish-check-h">
        <div className="card-header">
          <h2 id="publish-check-h" ref={headingRef} tabIndex={-1} className="check-title">
            Check before publishing
          </h2>
          {failing === 0 ? (
            <StatusBadge status="ok" label="Ready" />
          ) : (
            <StatusBadge status="failed" label={`${failing.toLocaleString()} would fail`} />
          )}
        </div>
        <p className="check-summary">
          {failing === 0 ? (
            <>
              All {listings(checked)} pass the checks. The stores may still refuse a listing on
              rules of their own.
            </>
          ) : (
            <>
              {failing.toLocaleString()} of {listings(checked)} would fail, for the reasons below.
              Publishing now sends the others; fix these first to publish everything at once.
            </>
          )}
        </p>
        <ul className="check-stores">
          {stores.map((s) => (
            <li key={s.id} className="check-store">
              <div className="check-store-head">
                <h3 className="check-store-name">{s.name}</h3>
                <span className="muted small">{channelName(s.channel)}</span>
                <span className="check-store-count small">
                  {s.failing === 0 ? (
                    <span className="ok-text">All {s.total.toLocaleString()} pass</span>
                  ) : (
                    <span className="bad-text">
                      {s.failing.toLocaleString()} of {s.total.toLocaleString()} would fail
                    </span>
                  )}
                </span>
              </div>
              {s.shared.length > 0 ? (
                <div className="check-block">
                  {s.shared.some((p) => p.field.startsWith("settings.")) ? (
                    <p className="check-block-title">
                      Store settings to fix: every product fails here until they are set
                      {isOwner ? (
                        <>
                          {" "}
                          (in{" "}
                          <Link to="/destinations" search={{}} hash={`dest-${s.id}`}>
                            {s.name}’s settings
                          </Link>
                          )
                        </>
                      ) : (
                        " (your organisation's owner sets them)"
                      )}
                    </p>
                  ) : (
                    <p className="check-block-title">Every product fails here for now</p>
                  )}
                  <ProblemList problems={s.shared} info={s.info} />
                </div>
              ) : null}
              {s.products.length > 0 ? (
                <ul className="check-products">
                  {s.products.slice(0, SHOWN_PER_STORE).map((p) => (
                    <li key={p.id}>
                      <Link
                        to="/products/$id"
                        params={{ id: p.id }}
                        search={{ edit: 1 }}
                        className="check-product"
                      >
                        {titleOf(p.id)}
                      </Link>
                      <ProblemList problems={p.problems} info={s.info} />
                    </li>
                  ))}
                </ul>
              ) : null}
              {s.products.length > SHOWN_PER_STORE ? (
                <p className="muted small check-more">
                  and {(s.products.length - SHOWN_PER_STORE).toLocaleString()} more products with
                  problems here
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
    );
  },
);
