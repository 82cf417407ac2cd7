// The Amazon stand-in's notifications: what Amazon's Notifications API would put on the app's
// SQS queue after a listing changes (LISTINGS_ITEM_STATUS_CHANGED, LISTINGS_ITEM_ISSUES_CHANGE),
// delivered as an operator's relay would: POSTed to the gateway's notifications route with the
// shared secret. Each is checked first against the notification's JSON Schema in
// ../shared/contracts/amazon; one that breaks it is kept in `violations` and not sent. Sent one
// after another, in the order the changes happened, after the answer that caused them.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { ContractViolation } from "../standins/contract/contract-check.js";

type Json = Record<string, unknown>;

const SCHEMAS = {
  LISTINGS_ITEM_STATUS_CHANGED: "ListingsItemStatusChangeNotification.json",
  LISTINGS_ITEM_ISSUES_CHANGE: "ListingsItemIssuesChangeNotification_2023-12-13.json",
} as const;
type NotificationType = keyof typeof SCHEMAS;

export interface AmazonNotifier {
  /** The listing's status changed (BUYABLE, DISCOVERABLE, DELETED). */
  status(
    sellerId: string,
    marketplaceId: string,
    sku: string,
    asin: string,
    status: string[],
  ): void;
  /** The listing's issues changed: severities NONE, WARNING or ERROR, and what Amazon did. */
  issues(
    sellerId: string,
    marketplaceId: string,
    sku: string,
    asin: string,
    severities: string[],
    enforcementActions: string[],
  ): void;
  /** Resolves once every notification queued so far was delivered (or failed). */
  settled(): Promise<void>;
  /** Notifications the gateway did not take (status and answer), for tests and the demo's log. */
  readonly failures: string[];
}

export function amazonNotifier(
  target: { url: string; secret: string },
  contractsDir: string | null,
  violations: ContractViolation[],
): AmazonNotifier {
  const validators = new Map<NotificationType, ValidateFunction>();
  if (contractsDir) {
    // The schemas carry Amazon's documentation keywords (x-docgen-...), which strict mode refuses.
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    for (const [type, file] of Object.entries(SCHEMAS)) {
      validators.set(
        type as NotificationType,
        ajv.compile(JSON.parse(readFileSync(`${contractsDir}/amazon/${file}`, "utf8")) as Json),
      );
    }
  }
  const failures: string[] = [];
  let queue = Promise.resolve();

  function send(type: NotificationType, payload: Json) {
    const now = new Date().toISOString();
    const notification = {
      NotificationVersion: "1.0",
      NotificationType: type,
      PayloadVersion: type === "LISTINGS_ITEM_ISSUES_CHANGE" ? "2023-12-13" : "1.0",
      EventTime: now,
      Payload: payload,
      NotificationMetadata: {
        ApplicationId: "amzn1.sellerapps.app.standin",
        SubscriptionId: randomUUID(),
        PublishTime: now,
        NotificationId: randomUUID(),
      },
    };
    const validate = validators.get(type);
    if (validate && !validate(notification)) {
      violations.push({
        request: `notification ${type}`,
        problems: (validate.errors ?? []).map(
          (e) => `${e.instancePath || "notification"} ${e.message ?? "is invalid"}`,
        ),
      });
      return;
    }
    queue = queue.then(async () => {
      try {
        const answer = await fetch(target.url, {
          method: "POST",
          body: JSON.stringify(notification),
          signal: AbortSignal.timeout(10_000),
          headers: { "content-type": "application/json", authorization: `Bearer ${target.secret}` },
        });
        if (!answer.ok)
          failures.push(`${type} ${String(payload.Sku)}: ${answer.status} ${await answer.text()}`);
      } catch (error) {
        failures.push(`${type} ${String(payload.Sku)}: ${(error as Error).message}`);
      }
    });
  }

  return {
    status: (SellerId, MarketplaceId, Sku, Asin, Status) =>
      send("LISTINGS_ITEM_STATUS_CHANGED", {
        SellerId,
        MarketplaceId,
        Asin,
        Sku,
        CreatedDate: new Date().toISOString(),
        Status,
      }),
    issues: (SellerId, MarketplaceId, Sku, Asin, Severities, EnforcementActions) =>
      send("LISTINGS_ITEM_ISSUES_CHANGE", {
        SellerId,
        MarketplaceId,
        Asin,
        Sku,
        Severities,
        EnforcementActions,
      }),
    settled: () => queue,
    failures,
  };
}
