// The sync logs of one page as a table, grouped under the publish run each entry belongs to.
import { Link } from "@tanstack/react-router";
import type { SyncLog, SyncLogList } from "@catalog/gateway/api-types";
import { runName } from "../../lib/runs";
import { StatusBadge } from "../../ui/StatusBadge";
import { formatDateTime, formatWhen } from "../../ui/format";
import {
  KIND_LABELS,
  STATUS_HELP,
  STATUS_LABELS,
  groupByRun,
  groupCounts,
  type SyncLogGroup,
} from "./groups";
import { FailureNote } from "./FailureNote";
import { ResultText } from "./ResultText";
import "./sync-logs.css";

const COLUMNS = 5;

type RunHead = SyncLogList["runs"][number];

interface Props {
  items: SyncLog[];
  /** The heads of the runs the entries belong to (the list's `runs`). */
  runs: RunHead[];
  titleOf: (productId: string) => string | undefined;
  storeOf: (destinationAccountId: string) => string;
  channelOf: (destinationAccountId: string) => string | undefined;
}

export function SyncLogTable({ items, runs, titleOf, storeOf, channelOf }: Props) {
  const groups = groupByRun(items);
  const heads = new Map(runs.map((run) => [run.id, run]));
  return (
    <div className="table-wrap responsive sync-log-table">
      <table className="table">
        <colgroup>
          <col className="col-product" />
          <col className="col-store" />
          <col className="col-status" />
          <col className="col-when" />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Store</th>
            <th scope="col">Status</th>
            <th scope="col">When</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        {groups.map((group, i) => (
          <Group
            key={`${group.runId ?? "auto"}-${i}`}
            group={group}
            run={group.runId ? heads.get(group.runId) : undefined}
            index={i}
            {...{ titleOf, storeOf, channelOf }}
          />
        ))}
      </table>
    </div>
  );
}

function Group({
  group,
  run,
  index,
  titleOf,
  storeOf,
  channelOf,
}: Omit<Props, "items" | "runs"> & {
  group: SyncLogGroup;
  run: RunHead | undefined;
  index: number;
}) {
  const headingId = `sync-group-${index}`;
  const first = group.items.at(-1);
  return (
    <tbody aria-labelledby={headingId}>
      <tr className="group-row">
        <th colSpan={COLUMNS} scope="colgroup" id={headingId}>
          <span className="group-title">
            {run ? runName(run) : group.runId ? "Publish run" : "Automatic changes"}
            {first ? (
              <span className="muted" title={formatDateTime(first.createdAt)}>
                {" "}
                · {formatWhen(first.createdAt)}
              </span>
            ) : null}
          </span>
          <span className={group.failed > 0 ? "group-counts text-bad" : "group-counts muted"}>
            {groupCounts(group)}
          </span>
          {group.runId ? (
            <Link to="/runs/$id" params={{ id: group.runId }} className="group-link">
              Open the run
            </Link>
          ) : null}
        </th>
      </tr>
      {group.items.map((log) => (
        <Row
          key={log.id}
          log={log}
          title={titleOf(log.productId)}
          store={storeOf(log.destinationAccountId)}
          channel={channelOf(log.destinationAccountId)}
        />
      ))}
    </tbody>
  );
}

function Row({
  log,
  title,
  store,
  channel,
}: {
  log: SyncLog;
  title?: string;
  store: string;
  channel: string | undefined;
}) {
  const when = log.finishedAt ?? log.startedAt ?? log.createdAt;
  return (
    <tr>
      <td className="cell-product">
        <Link to="/products/$id" params={{ id: log.productId }} className="cell-title">
          {title ?? "Loading the title…"}
        </Link>
        {log.kind !== "publish" ? (
          <div className="cell-sub">
            {KIND_LABELS[log.kind]}
            {log.trigger ? `: ${log.trigger}` : ""}
          </div>
        ) : null}
      </td>
      <td className="cell-store">
        {store}
        {/* At phone width the time column folds in here. */}
        <span className="when-inline"> · {formatWhen(when)}</span>
      </td>
      <td className="cell-status">
        <StatusBadge
          status={log.status}
          label={STATUS_LABELS[log.status]}
          title={STATUS_HELP[log.status]}
        />
        {log.attempts > 1 ? <div className="cell-sub">{log.attempts} attempts</div> : null}
      </td>
      <td className="cell-when nowrap" title={formatDateTime(when)}>
        {formatWhen(when)}
      </td>
      <td className="cell-result">
        {log.failure && (log.status === "failed" || log.status === "dead") ? (
          <FailureNote
            log={log}
            product={title ?? "This product"}
            store={store}
            channel={channel}
          />
        ) : (
          <Result log={log} />
        )}
      </td>
    </tr>
  );
}

function Result({ log }: { log: SyncLog }) {
  if (log.error) return <ResultText tone="bad">{log.error}</ResultText>;
  const note = log.note ? <span className="muted"> · {log.note}</span> : null;
  if (log.remoteUrl)
    return (
      <ResultText>
        <a href={log.remoteUrl} target="_blank" rel="noreferrer noopener">
          Open listing
        </a>
        {note}
      </ResultText>
    );
  if (log.remoteId)
    return (
      <ResultText>
        Listed as <span className="mono">{log.remoteId}</span>
        {note}
      </ResultText>
    );
  if (log.note) return <ResultText>{log.note}</ResultText>;
  return <span className="muted">—</span>;
}
