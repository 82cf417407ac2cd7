// Source watch: how often the product's page is fetched again, what the last check found, and
// "Check now".
import { useEffect, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProductDetail, WatchBody } from "@catalog/gateway/api-types";
import { errorMessage, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { useToast } from "../../ui/toast-context";
import { formatDateTime } from "../../ui/format";

const SCHEDULES: { value: WatchBody["schedule"]; label: string }[] = [
  { value: null, label: "Not watched" },
  { value: "hourly", label: "Every hour" },
  { value: "daily", label: "Every day" },
  { value: "weekly", label: "Every week" },
];

/** How long the screen follows a check it asked for (the check waits its turn per host). */
const FOLLOW_MS = 60_000;
const FOLLOW_EVERY_MS = 2_000;

export function SourceWatch({ product: p }: { product: ProductDetail }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [error, setError] = useState("");
  // Set when a check is asked for here (or a watch begun): the last check's time before it.
  const [following, setFollowing] = useState<{ since: string | null } | null>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: qk.products.detail(p.id) }),
      queryClient.invalidateQueries({ queryKey: qk.products.history(p.id) }),
    ]);
  const setSchedule = useMutation({
    mutationFn: (schedule: WatchBody["schedule"]) => endpoints.products.watch(p.id, { schedule }),
    onMutate: () => setError(""),
    onSuccess: async (watch) => {
      // Watching checks the page at once: follow that first check.
      if (watch) setFollowing({ since: p.watch?.lastCheckedAt ?? null });
      toast.notify(
        watch ? "The source page is watched" : "The source page is no longer watched",
        "ok",
      );
      await refresh();
    },
    onError: (err) => setError(errorMessage(err)),
  });
  const checkNow = useMutation({
    mutationFn: () => endpoints.products.checkSource(p.id),
    onMutate: () => setError(""),
    onSuccess: () => {
      setFollowing({ since: p.watch?.lastCheckedAt ?? null });
      toast.notify("Checking the source page", "ok");
    },
    onError: (err) => setError(errorMessage(err)),
  });

  // Follow a check asked for until its result is in (or a minute has passed).
  const lastCheckedAt = p.watch?.lastCheckedAt ?? null;
  const waiting = following !== null && lastCheckedAt === following.since;
  useEffect(() => {
    if (!waiting) return;
    const poll = setInterval(
      () => void queryClient.invalidateQueries({ queryKey: qk.products.detail(p.id) }),
      FOLLOW_EVERY_MS,
    );
    const stop = setTimeout(() => setFollowing(null), FOLLOW_MS);
    return () => {
      clearInterval(poll);
      clearTimeout(stop);
    };
  }, [waiting, p.id, queryClient]);
  // A new result: the history holds the change it made, if any.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: qk.products.history(p.id) });
  }, [lastCheckedAt, p.id, queryClient]);

  if (!p.sourceUrl) return null;
  const w = p.watch;
  return (
    <section className="section card" aria-labelledby="watch-h">
      <div className="card-header row" style={{ justifyContent: "space-between" }}>
        <h2 id="watch-h">Source watch</h2>
        <div className="row">
          <label className="small" htmlFor="watch-schedule">
            Check the source page
          </label>
          <select
            id="watch-schedule"
            className="select"
            style={{ width: "auto" }}
            value={w?.schedule ?? ""}
            disabled={setSchedule.isPending}
            onChange={(e) => setSchedule.mutate((e.target.value || null) as WatchBody["schedule"])}
          >
            {SCHEDULES.map((s) => (
              <option key={s.label} value={s.value ?? ""}>
                {s.label}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn"
            disabled={checkNow.isPending || waiting}
            onClick={() => checkNow.mutate()}
          >
            {waiting ? "Checking…" : "Check now"}
          </button>
        </div>
      </div>
      <div className="card-body">
        {error ? (
          <p className="small" role="alert" style={{ color: "var(--bad)" }}>
            {error}
          </p>
        ) : null}
        {w ? (
          <dl className="dl">
            <dt>Last check</dt>
            <dd>{formatDateTime(w.lastCheckedAt)}</dd>
            <dt>Next check</dt>
            <dd>{formatDateTime(w.nextCheckAt)}</dd>
            <dt>Last change</dt>
            <dd>{formatDateTime(w.lastChangedAt)}</dd>
            <dt>Result</dt>
            <dd data-testid="watch-result">{w.lastResult ?? "—"}</dd>
          </dl>
        ) : (
          <p className="small muted">
            Not watched. Choose how often to check the source page: a new price, availability or
            stock there updates this product, and its listings follow.
          </p>
        )}
      </div>
    </section>
  );
}
