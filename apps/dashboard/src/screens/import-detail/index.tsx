// /imports/:id — one import: progress while it is read, then the preview (what each row would
// do, the product it matches, the field diff, errors next to their row), rows the user leaves
// out, and storing exactly what was previewed.
import { useEffect, useState } from "react";
import { Link, getRouteApi, useNavigate } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Import } from "@catalog/gateway/api-types";
import { isStatus, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { IMPORT_STATUS_LABELS, isWorking, nothingRead } from "../../lib/imports";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { PageHeader } from "../../ui/PageHeader";
import { StatusBadge } from "../../ui/StatusBadge";
import { Empty, ErrorMessage, Loading, Notice } from "../../ui/states";
import { useToast } from "../../ui/toast-context";
import { formatDateTime, formatRelative } from "../../ui/format";
import { EncodingNote } from "./EncodingNote";
import { MappingNote } from "./MappingNote";
import { NoCurrencyNotice } from "./NoCurrencyNotice";
import { NothingRead } from "./NothingRead";
import { PreviewSection } from "./PreviewSection";
import { ProgressCard } from "./ProgressCard";
import { StoreBar } from "./StoreBar";
import { StoredResult } from "./StoredResult";
import { parseOutcome, type Outcome } from "./rows";
import { useLeftOut, type LeftOut } from "./useLeftOut";

const route = getRouteApi("/app/imports/$id");

export function ImportDetail() {
  const { id } = route.useParams();
  const queryClient = useQueryClient();
  const leftOut = useLeftOut(id);
  const imp = useQuery({
    queryKey: qk.imports.detail(id),
    queryFn: () => endpoints.imports.get(id),
    refetchInterval: (q) => (isWorking(q.state.data?.status) ? 1000 : false),
    staleTime: 0,
  });

  useEffect(() => {
    document.title = `${imp.data?.name ?? "Import"} · Catalog`;
  }, [imp.data?.name]);

  // Once stored, the catalog changed, and the rows left out have served their purpose.
  const { clear: clearLeftOut } = leftOut;
  const stored = imp.data?.status === "stored";
  useEffect(() => {
    if (!stored) return;
    void queryClient.invalidateQueries({ queryKey: qk.products.all });
    clearLeftOut();
  }, [stored, queryClient, clearLeftOut]);

  if (imp.isLoading)
    return (
      <div className="page">
        <Loading label="Loading the import" />
      </div>
    );
  if (!imp.data) {
    return (
      <div className="page">
        <PageHeader
          title="Import"
          breadcrumb={
            <Link to="/imports" search={{}}>
              Import
            </Link>
          }
        />
        {isStatus(imp.error, 404) ? (
          <Empty
            title="There is no such import"
            action={
              <Link to="/imports" search={{}} className="btn">
                See your imports
              </Link>
            }
          >
            It may have expired (previews are kept for a few days), or the link is wrong.
          </Empty>
        ) : (
          <ErrorMessage
            error={imp.error}
            title="Could not load the import"
            onRetry={() => void imp.refetch()}
          />
        )}
      </div>
    );
  }
  return <ImportView item={imp.data} leftOut={leftOut} />;
}

function ImportView({ item: i, leftOut }: { item: Import; leftOut: LeftOut }) {
  const { page = 1, outcome: rawOutcome } = route.useSearch();
  const outcome = parseOutcome(rawOutcome);
  const navigate = useNavigate({ from: "/imports/$id" });
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const discard = useDiscard(i, leftOut);
  const c = i.counts;
  const totalRows = c.create + c.update + c.unchanged + c.error;
  const ready = i.status === "ready";
  const unread = nothingRead(i);
  const statusLabel = unread ? "Nothing could be read" : IMPORT_STATUS_LABELS[i.status];

  function setSearch(next: { page?: number; outcome?: Outcome }) {
    void navigate({
      search: { page: next.page && next.page > 1 ? next.page : undefined, outcome: next.outcome },
      replace: true,
    });
  }

  return (
    <div className="page import-page">
      <PageHeader
        breadcrumb={
          <Link to="/imports" search={{}}>
            Import
          </Link>
        }
        title={<span className="wrap-anywhere">{i.name}</span>}
        description={
          <>
            <StatusBadge status={unread ? "failed" : i.status} label={statusLabel} />{" "}
            <span title={formatDateTime(i.createdAt)}>Started {formatRelative(i.createdAt)}</span>
            {i.currency ? <> · prices without a currency read as {i.currency}</> : null}
            {i.encoding ? (
              <EncodingNote encoding={i.encoding} again={i.status !== "discarded"} />
            ) : null}
            <MappingNote item={i} />
          </>
        }
        actions={
          ready ? (
            <button type="button" className="btn" onClick={() => setConfirmDiscard(true)}>
              Discard
            </button>
          ) : null
        }
      />

      <p className="visually-hidden" role="status">
        {statusLabel}
      </p>
      {isWorking(i.status) ? <ProgressCard item={i} /> : null}

      {i.status === "failed" ? (
        <Notice tone="bad">
          <p>
            <strong>This import failed{i.error ? ":" : "."}</strong> {i.error ?? ""} Nothing was
            stored.
          </p>
          <Link to="/imports" search={{}} className="btn btn-sm">
            Start another import
          </Link>
        </Notice>
      ) : null}
      {unread ? <NothingRead pages={c.error} /> : null}
      {i.status === "discarded" ? (
        <Empty
          title="You discarded this preview"
          action={
            <Link to="/imports" search={{}} className="btn btn-primary">
              Start another import
            </Link>
          }
        >
          Nothing from it was stored.
        </Empty>
      ) : null}
      {i.status === "stored" && i.result ? <StoredResult item={i} result={i.result} /> : null}
      {c.noCurrency > 0 && i.status !== "discarded" ? (
        <NoCurrencyNotice count={c.noCurrency} stored={i.status === "stored"} />
      ) : null}

      {i.status !== "discarded" && (totalRows > 0 || !isWorking(i.status)) ? (
        <PreviewSection
          item={i}
          page={page}
          outcome={outcome}
          leftOut={leftOut}
          onSearch={setSearch}
        />
      ) : null}

      {ready && !unread ? <StoreBar item={i} leftOut={leftOut} /> : null}

      <ConfirmDialog
        open={confirmDiscard}
        title="Discard this preview?"
        confirmLabel="Discard preview"
        danger
        onConfirm={() => discard.mutateAsync()}
        onClose={() => setConfirmDiscard(false)}
      >
        <p>
          Nothing from “{i.name}” has been stored, and nothing will be. The preview is removed;
          import the file or pages again to start over.
        </p>
      </ConfirmDialog>
    </div>
  );
}

/** Discards the preview (the confirmation dialog shows a refusal); nothing was stored. */
function useDiscard(i: Import, leftOut: LeftOut) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: () => endpoints.imports.discard(i.id),
    onSuccess: async () => {
      leftOut.clear();
      await queryClient.invalidateQueries({ queryKey: qk.imports.all });
      toast.notify(`Discarded “${i.name}”: nothing was stored`, "ok");
    },
  });
}
