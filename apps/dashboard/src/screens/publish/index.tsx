// /publish?ids=a,b,c — pick destinations for a selection of products and publish them as one
// run (then follow it at /runs/:id). Without ids, the catalog's selection is used.
import { useEffect, useMemo, useRef, useState, type SubmitEvent } from "react";
import { Link, getRouteApi, useNavigate } from "@tanstack/react-router";
import { useMutation, useQueries, useQueryClient } from "@tanstack/react-query";
import type { Destination, PublishBody, PublishCheck } from "@catalog/gateway/api-types";
import { ApiError, errorMessage, qk } from "../../api/client";
import { useChannels } from "../../api/channels";
import * as endpoints from "../../api/endpoints";
import { useChannelName, useDestinations } from "../../api/queries";
import { useSession } from "../../api/session";
import { useNow } from "../../ui/clock";
import { holdsOf, needsClock } from "../../ui/destination-state";
import { PageHeader } from "../../ui/PageHeader";
import { PublishCheckResults } from "../../ui/PublishCheckResults";
import { Empty, ErrorMessage, Loading, Notice } from "../../ui/states";
import { useToast } from "../../ui/toast-context";
import { MAX_SELECTION, useSelection } from "../../ui/selection";
import { LegalReminder } from "../legal/LegalReminder";
import { DestinationOption } from "./DestinationOption";
import { PREVIEW_TITLES, SelectedProducts } from "./SelectedProducts";
import { countOf } from "../../ui/format";

const route = getRouteApi("/app/publish");
const MAX_DESTINATIONS = 20;

function newKey(): string {
  return typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export function Publish() {
  const channelName = useChannelName();
  const { ids: idsParam } = route.useSearch();
  const selection = useSelection();
  const fromUrl = useMemo(
    () =>
      idsParam
        ? [
            ...new Set(
              idsParam
                .split(",")
                .map((s) => s.trim())
                .filter(Boolean),
            ),
          ]
        : null,
    [idsParam],
  );
  const ids = fromUrl ?? selection.ids;
  const session = useSession();
  const destinations = useDestinations({ refetchInterval: 15_000 });
  const channels = useChannels();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  // The stores the user ticked; until they tick or untick one, a single store is ticked: there is
  // nothing to choose.
  const [picked, setPicked] = useState<Set<string> | null>(null);
  const onlyStore = destinations.data?.items.length === 1 ? destinations.data.items[0] : undefined;
  const chosen = useMemo(
    () => picked ?? new Set(onlyStore ? [onlyStore.id] : []),
    [picked, onlyStore],
  );
  const [error, setError] = useState<string | null>(null);
  // One Idempotency-Key per submitted body: a double click or a retry after a lost answer
  // gets the same run back instead of publishing twice.
  const attempt = useRef<{ body: string; key: string } | null>(null);
  // The last "Check first" (a dry run) and the choice it was made for: shown while the choice
  // stands.
  const [check, setCheck] = useState<{ of: string; result: PublishCheck } | null>(null);
  const dryRun = useMutation({
    mutationFn: ({ body }: { body: PublishBody; of: string }) => endpoints.publishRuns.check(body),
    onSuccess: (result, { of }) => setCheck({ of, result }),
    onError: (err) => setError(errorMessage(err)),
  });
  // Pending until the run's page is open, so the button keeps saying what is happening.
  const start = useMutation({
    mutationFn: ({ body, key }: { body: PublishBody; key: string }) =>
      endpoints.publishRuns.start(body, key),
    onSuccess: async (result) => {
      void queryClient.invalidateQueries({ queryKey: qk.products.all });
      void queryClient.invalidateQueries({ queryKey: qk.runs.all });
      void queryClient.invalidateQueries({ queryKey: qk.destinations });
      if (
        !fromUrl ||
        (fromUrl.length === selection.ids.length && fromUrl.every((id) => selection.set.has(id)))
      )
        selection.clear();
      if (result.runId) {
        await navigate({ to: "/runs/$id", params: { id: result.runId } });
      } else {
        toast.notify(`Publishing ${countOf(result.jobs.length, "listing")}`, "ok");
        await navigate({ to: "/sync-logs", search: {} });
      }
    },
    onError: (err) => {
      // Only an answer that never arrived may have published: that retry must reuse the key.
      // After a refusal (a wait, an unknown product) the next submission is a new request.
      if (!(err instanceof ApiError && err.status === 0)) attempt.current = null;
      setError(errorMessage(err));
    },
  });
  const checkHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    document.title = "Publish · Catalog";
  }, []);

  // A long ?ids= list that is the catalog's selection is dropped from the address: the screen
  // reads the same ids from the selection, and a reload does not send a URL the gateway refuses.
  const navigateHere = useNavigate({ from: "/publish" });
  useEffect(() => {
    if (
      fromUrl &&
      fromUrl.length > 50 &&
      fromUrl.length === selection.ids.length &&
      fromUrl.every((id) => selection.set.has(id))
    ) {
      void navigateHere({ search: {}, replace: true });
    }
  }, [fromUrl, selection.ids, selection.set, navigateHere]);

  const items = destinations.data?.items ?? [];
  const now = useNow(needsClock(items));

  const firstFew = useQueries({
    queries: ids.slice(0, PREVIEW_TITLES).map((id) => ({
      queryKey: qk.products.detail(id),
      queryFn: () => endpoints.products.get(id),
      staleTime: 60_000,
    })),
  });

  const blocked = (d: Destination) => holdsOf(d, now, channelName).some((h) => h.kind === "wait");
  const chosenIds = items.filter((d) => chosen.has(d.id) && !blocked(d)).map((d) => d.id);

  const choiceKey = JSON.stringify([ids, chosenIds]);
  const currentCheck = check?.of === choiceKey ? check.result : null;

  useEffect(() => {
    if (currentCheck) checkHeading.current?.focus();
  }, [currentCheck]);

  function runCheck() {
    if (chosenIds.length === 0) {
      setError("Choose at least one destination");
      return;
    }
    setError(null);
    dryRun.mutate({ body: { productIds: ids, destinationAccountIds: chosenIds }, of: choiceKey });
  }

  function submit(e: SubmitEvent) {
    e.preventDefault();
    send();
  }

  /** Publishes the choice; `skip`: the pairs the check found would fail ("the ones that pass"). */
  function send(skip?: PublishBody["skip"]) {
    if (chosenIds.length === 0) {
      setError("Choose at least one destination");
      return;
    }
    const body: PublishBody = {
      productIds: ids,
      destinationAccountIds: chosenIds,
      ...(skip ? { skip } : {}),
    };
    const json = JSON.stringify(body);
    if (attempt.current?.body !== json) attempt.current = { body: json, key: newKey() };
    setError(null);
    start.mutate({ body, key: attempt.current.key });
  }

  if (ids.length === 0) {
    return (
      <div className="page page-narrow">
        <PageHeader
          title="Publish"
          breadcrumb={
            <Link to="/runs" search={{}}>
              Publish runs
            </Link>
          }
        />
        <Empty
          title="No products selected"
          action={
            <Link to="/products" search={{}} className="btn btn-primary">
              Choose products in the catalog
            </Link>
          }
        >
          Tick the products to publish in the catalog (or every product matching a search), then
          choose “Publish selected”.
        </Empty>
      </div>
    );
  }

  const shown = ids.slice(0, PREVIEW_TITLES).map((id, n) => {
    const q = firstFew[n];
    return {
      id,
      title: q?.data?.title ?? (q?.isError ? `Product ${id.slice(0, 8)} (not found)` : "…"),
    };
  });
  const missingProducts = firstFew.filter((q) => q.isError).length;
  const isOwner = session.user.role === "owner";

  return (
    <div className="page page-narrow">
      <PageHeader
        breadcrumb={
          <Link to="/products" search={{}}>
            Catalog
          </Link>
        }
        title={`Publish ${countOf(ids.length, "product")}`}
        description="Choose where they go. Each product is listed on each store you choose; you can watch it happen."
      />

      <SelectedProducts ids={ids} shown={shown} missing={missingProducts} />

      <form onSubmit={submit} noValidate>
        <fieldset
          className="card section dest-picker"
          aria-describedby={error ? "publish-error" : undefined}
        >
          <legend className="card-legend">Destinations</legend>
          <ErrorMessage
            error={destinations.error}
            title="Could not load your stores"
            onRetry={() => void destinations.refetch()}
          />
          {destinations.isLoading ? (
            <Loading label="Loading your stores" />
          ) : destinations.data && items.length === 0 ? (
            <div className="card-body">
              <p>No store is connected yet, so there is nowhere to publish.</p>
              {isOwner ? (
                <Link to="/destinations" search={{}} className="btn btn-primary">
                  Connect a store
                </Link>
              ) : (
                <p className="muted">Your organisation's owner connects stores.</p>
              )}
            </div>
          ) : (
            <ul className="dest-options">
              {items.map((d) => (
                <DestinationOption
                  key={d.id}
                  destination={d}
                  now={now}
                  channels={channels.data?.items}
                  isOwner={isOwner}
                  chosen={chosen.has(d.id)}
                  full={chosen.size >= MAX_DESTINATIONS}
                  onChoose={(on) => {
                    setError(null);
                    const next = new Set(chosen);
                    if (on) next.add(d.id);
                    else next.delete(d.id);
                    setPicked(next);
                  }}
                />
              ))}
            </ul>
          )}
        </fieldset>

        {currentCheck ? (
          <PublishCheckResults
            ref={checkHeading}
            check={currentCheck}
            destinations={items}
            channels={channels.data?.items}
            channelName={channelName}
            knownTitles={
              new Map(
                firstFew.flatMap((q, n) => {
                  const id = ids[n];
                  return q.data && id ? [[id, q.data.title] as const] : [];
                }),
              )
            }
            isOwner={isOwner}
          />
        ) : check ? (
          <p className="muted small check-stale">
            The products or stores changed since the check: check again to see what would fail.
          </p>
        ) : null}

        <LegalReminder before="publish" />
        {error ? (
          <Notice tone="bad" id="publish-error">
            <p>{error}</p>
          </Notice>
        ) : null}
        <div className="form-actions">
          <button
            type="button"
            className="btn"
            onClick={runCheck}
            disabled={
              dryRun.isPending ||
              start.isPending ||
              ids.length > MAX_SELECTION ||
              items.length === 0
            }
            aria-describedby="publish-check-hint"
          >
            {dryRun.isPending ? "Checking…" : "Check first"}
          </button>
          {currentCheck && currentCheck.summary.failing > 0 && currentCheck.summary.ok > 0 ? (
            <button
              type="button"
              className="btn btn-primary"
              disabled={start.isPending}
              onClick={() =>
                send(
                  currentCheck.items
                    .filter((i) => !i.ok)
                    .map((i) => ({
                      productId: i.productId,
                      destinationAccountId: i.destinationAccountId,
                    })),
                )
              }
            >
              Publish the {currentCheck.summary.ok.toLocaleString()} that pass
            </button>
          ) : null}
          <button
            type="submit"
            className={
              currentCheck && currentCheck.summary.failing > 0 && currentCheck.summary.ok > 0
                ? "btn"
                : "btn btn-primary"
            }
            disabled={start.isPending || ids.length > MAX_SELECTION || items.length === 0}
          >
            {start.isPending
              ? "Publishing…"
              : chosenIds.length > 0
                ? `Publish to ${countOf(chosenIds.length, "store")}`
                : "Publish"}
          </button>
          <Link to="/products" search={{}} className="btn btn-ghost">
            Cancel
          </Link>
        </div>
        <p id="publish-check-hint" className="muted small check-hint">
          “Check first” shows what each store would refuse, and why, without publishing anything.
        </p>
      </form>
    </div>
  );
}
