// What a channel reports on its own about listings it holds (Amazon's listing notifications),
// kept on each matching listing by SKU. A listing matches when its destination is the seller's
// (channel and externalId, still connected, holding the report's settings) and the SKU is the
// listing's own (remoteId), its product's (a first publish's report can come before the worker
// has stored the remote id: the listing row exists from the moment the publish was queued), or
// one of its product's variants'. Reports may arrive late, twice or
// out of order: each kind (status, issues) of each SKU keeps the newest by its event time, under
// the listing's row lock, so two reports landing together both count.
import type { Db } from "../client.js";
import type { Channel } from "../generated/enums.js";
import type { Prisma } from "../generated/client.js";
import { recordWebhookEvent } from "../webhooks/webhook-events.js";

export interface ChannelReportInput {
  channel: Channel;
  externalId: string;
  sku: string;
  at: Date;
  settingsMatch: Record<string, string>;
  status?: string[];
  issues?: { severities: string[]; enforcementActions: string[] };
}

/** One SKU's reports as stored (dates as ISO text). */
interface StoredReport {
  status?: string[];
  statusAt?: string;
  severities?: string[];
  enforcementActions?: string[];
  issuesAt?: string;
}

/** One SKU's reports as the API shows them. */
export interface ChannelReportView {
  sku: string;
  /**
   * The listing's states at the channel (BUYABLE, DISCOVERABLE, DELETED); null before any status
   * report.
   */
  status: string[] | null;
  /**
   * Its open issues' severities and the channel's enforcement actions; null before any issues
   * report.
   */
  issues: { severities: string[]; enforcementActions: string[] } | null;
  /** The newest report's event time. */
  reportedAt: string;
}

/** Stored reports, by SKU, as the API shows them (listing's own SKU first). */
export function channelReportsView(stored: unknown, ownSku: string | null): ChannelReportView[] {
  const bySku = (stored && typeof stored === "object" ? stored : {}) as Record<
    string,
    StoredReport
  >;
  return Object.entries(bySku)
    .map(([sku, r]) => ({
      sku,
      status: r.status ?? null,
      issues: r.severities
        ? { severities: r.severities, enforcementActions: r.enforcementActions ?? [] }
        : null,
      reportedAt:
        [r.statusAt, r.issuesAt]
          .filter((t): t is string => !!t)
          .sort()
          .at(-1) ?? "",
    }))
    .sort(
      (a, b) => Number(b.sku === ownSku) - Number(a.sku === ownSku) || a.sku.localeCompare(b.sku),
    );
}

function merged(
  current: StoredReport | undefined,
  report: ChannelReportInput,
): StoredReport | null {
  const at = report.at.toISOString();
  const next: StoredReport = { ...current };
  let changed = false;
  if (report.status && !(current?.statusAt && current.statusAt > at)) {
    Object.assign(next, { status: report.status, statusAt: at });
    changed = true;
  }
  if (report.issues && !(current?.issuesAt && current.issuesAt > at)) {
    Object.assign(next, {
      severities: report.issues.severities,
      enforcementActions: report.issues.enforcementActions,
      issuesAt: at,
    });
    changed = true;
  }
  return changed ? next : null;
}

/**
 * Records the report on every listing it concerns; the orgs whose listings changed (none when it
 * matched nothing or was older).
 */
export async function recordChannelReport(
  db: Db,
  report: ChannelReportInput,
): Promise<{ matched: number; orgIds: string[] }> {
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<
      {
        id: string;
        org_id: string;
        product_id: string;
        destination_account_id: string;
        channel_reports: Record<string, StoredReport>;
        settings: Record<string, unknown>;
      }[]
    >`
      SELECT l.id, l.org_id, l.product_id, l.destination_account_id, l.channel_reports, d.settings
      FROM listings l
      JOIN destination_accounts d ON d.id = l.destination_account_id
      JOIN products p ON p.id = l.product_id
      WHERE d.channel = ${report.channel}::"Channel" AND d.external_id = ${report.externalId} AND d.disconnected_at IS NULL
        AND (l.remote_id = ${report.sku} OR p.sku = ${report.sku} OR p.variants @> jsonb_build_array(jsonb_build_object('sku', ${report.sku}::text)))
      ORDER BY l.id
      FOR UPDATE OF l`;
    const concerned = rows.filter((r) =>
      Object.entries(report.settingsMatch).every(
        ([key, value]) => r.settings?.[key] === undefined || r.settings[key] === value,
      ),
    );
    const orgIds = new Set<string>();
    for (const row of concerned) {
      const next = merged(row.channel_reports?.[report.sku], report);
      if (!next) continue;
      await tx.listing.update({
        where: { id: row.id },
        data: {
          channelReports: { ...row.channel_reports, [report.sku]: next } as Prisma.InputJsonValue,
        },
      });
      orgIds.add(row.org_id);
      // Webhooks out: the org learns of the channel's report in the same transaction.
      await recordWebhookEvent(tx, {
        orgId: row.org_id,
        type: "listing.channel_report",
        data: {
          listingId: row.id,
          productId: row.product_id,
          destinationAccountId: row.destination_account_id,
          channel: report.channel,
          sku: report.sku,
          reportedAt: report.at.toISOString(),
          status: next.status ?? null,
          issues: next.severities
            ? { severities: next.severities, enforcementActions: next.enforcementActions ?? [] }
            : null,
        },
      });
    }
    return { matched: concerned.length, orgIds: [...orgIds] };
  });
}
