import type { DestinationTarget, PublishableProduct } from "./adapter.js";
import { apiFieldName } from "./api-fields.js";
import type { ChannelName } from "./channel-names.js";
import { GiveUpChannelError } from "./errors.js";

/**
 * The destination's base URL without trailing slashes; a destination without one cannot be
 * published to.
 */
export function requiredBaseUrl(channel: ChannelName, destination: DestinationTarget): string {
  const baseUrl = destination.baseUrl?.trim().replace(/\/+$/, "");
  if (!baseUrl)
    throw new GiveUpChannelError(`${channel} destination ${destination.id} has no base URL`, {
      channel,
      kind: "validation",
      field: "baseUrl",
    });
  return baseUrl;
}

/**
 * A credential the adapter cannot work without (token, key): missing means the merchant must
 * connect again.
 */
export function requiredString(
  channel: ChannelName,
  destination: DestinationTarget,
  name: string,
): string {
  const value = destination.credentials[name];
  if (typeof value !== "string" || !value) {
    throw new GiveUpChannelError(
      `${channel} destination ${destination.id} has no ${name}: connect it again`,
      { channel, kind: "auth", field: name },
    );
  }
  return value;
}

/**
 * Settings the channel needs before any call (eBay's policies, Etsy's taxonomy), each problem
 * naming its setting.
 */
export function assertSettingsComplete(channel: ChannelName, problems: string[]): void {
  if (problems.length === 0) return;
  const said = problems.join("; ");
  throw new GiveUpChannelError(`${channel} destination settings are incomplete: ${said}`, {
    channel,
    kind: "validation",
    field: "settings",
    channelMessage: said,
  });
}

/** A product missing what the channel requires fails before any call, naming the field. */
export function missingField(
  channel: ChannelName,
  product: PublishableProduct,
  field: string,
  why = `${apiFieldName(field)} is required`,
): GiveUpChannelError {
  return new GiveUpChannelError(
    `${channel} needs a ${apiFieldName(field)}: product ${product.id} has none`,
    { channel, kind: "validation", field, channelMessage: why },
  );
}

/**
 * "19.9900" -> "19.99", "20" -> "20.00"; significant digits are never dropped, and no float is
 * involved.
 */
export function toChannelAmount(amount: string): string {
  const [whole = "0", fraction = ""] = amount.trim().split(".");
  return `${whole}.${fraction.replace(/0+$/, "").padEnd(2, "0")}`;
}
