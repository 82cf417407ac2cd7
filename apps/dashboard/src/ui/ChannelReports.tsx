// What a channel reported about a listing on its own after publishing (Amazon's listing
// notifications): one badge saying whether it is live there, and, for each SKU with a problem,
// what the channel said and did. Nothing is shown for channels that send no reports.
import type { ProductDetail } from "@catalog/gateway/api-types";
import { StatusBadge, type Tone } from "./StatusBadge";
import { formatDateTime } from "./format";

type Report = ProductDetail["listings"][number]["channelReports"][number];

const ACTIONS: Record<string, string> = {
  LISTING_SUPPRESSED: "listing suppressed",
  SEARCH_SUPPRESSED: "hidden from search",
  ATTRIBUTE_SUPPRESSED: "an attribute suppressed",
  CATALOG_ITEM_REMOVED: "catalog item removed",
};

/**
 * What is wrong with one SKU, in words; empty when nothing is. A family's parent is never buyable
 * itself.
 */
function problemsOf(report: Report, parent: boolean): string[] {
  const said: string[] = [];
  if (report.status?.includes("DELETED")) said.push("deleted");
  else if (report.status && !parent && !report.status.includes("BUYABLE")) said.push("not buyable");
  for (const action of report.issues?.enforcementActions ?? [])
    said.push(ACTIONS[action] ?? action.toLowerCase().replaceAll("_", " "));
  if (report.issues?.severities.includes("ERROR")) said.push("has errors");
  else if (report.issues?.severities.includes("WARNING")) said.push("has warnings");
  return said;
}

export function ChannelReports({
  reports,
  remoteId,
  channel,
}: {
  reports: Report[];
  remoteId: string | null;
  channel: string;
}) {
  if (reports.length === 0) return null;
  const family = reports.length > 1;
  const problems = reports
    .map((r) => ({ sku: r.sku, said: problemsOf(r, family && r.sku === remoteId) }))
    .filter((p) => p.said.length > 0);
  const bad = problems.some((p) =>
    p.said.some((s) => !s.startsWith("has warnings") && s !== "hidden from search"),
  );
  const [tone, label]: [Tone, string] =
    problems.length === 0
      ? ["ok", `Live on ${channel}`]
      : bad
        ? ["bad", `Problem on ${channel}`]
        : ["warn", `Warnings on ${channel}`];
  const newest = reports
    .map((r) => r.reportedAt)
    .sort()
    .at(-1);
  return (
    <div className="channel-reports">
      <StatusBadge
        status={tone}
        tone={tone}
        label={label}
        title={newest ? `${channel} reported this ${formatDateTime(newest)}` : undefined}
      />
      {problems.length > 0 && !family ? (
        <div className="cell-sub channel-report-said">{problems[0]!.said.join(", ")}</div>
      ) : null}
      {problems.length > 0 && family ? (
        <ul className="cell-sub channel-report-list">
          {problems.map((p) => (
            <li key={p.sku}>
              <span className="mono">{p.sku}</span>: {p.said.join(", ")}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
