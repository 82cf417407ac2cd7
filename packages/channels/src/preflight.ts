// A publish checked before it is made (POST /api/products/publish with dryRun): what the channel
// would refuse, found without creating anything. Each channel's checks are the functions its
// adapter runs before its first call, so a dry run and a real publish give up for the same
// reasons: the adapter throws the first problem, a dry run lists them all.
import type { DestinationTarget, PublishableProduct } from "./adapter.js";
import { apiFieldName } from "./api-fields.js";
import { requiredBaseUrl } from "./destination-fields.js";
import { GiveUpChannelError } from "./errors.js";

/** One reason a publish would be refused: the product field or destination setting, and why. */
export interface PreflightProblem {
  /**
   * What to fix: a product field as the API names it (`title`, `price`, `sku`, `variants.sku`),
   * a destination setting as `settings.<name>`, or `destination` for the destination itself.
   */
  field: string;
  /**
   * Why, in words a merchant can act on ("title is required", "eBay takes at most 80 characters").
   */
  message: string;
}

/** What a channel's `preflight` hook is given. */
export interface PreflightInput {
  product: PublishableProduct;
  /**
   * The destination as a publish would see it. `credentials` are those stored (possibly an
   * expired access token), or `{}` where the caller cannot open them: a check that calls the
   * channel (Amazon's VALIDATION_PREVIEW) must say so as a problem rather than guess.
   */
  destination: DestinationTarget;
  /** Aborted when the caller stops waiting (a check that calls the channel must honour it). */
  signal: AbortSignal;
}

/** A give-up the adapter would throw, as a dry run reports it. */
export function problemOf(error: GiveUpChannelError): PreflightProblem {
  const field = error.field ?? "product";
  return { field: apiFieldName(field), message: error.channelMessage };
}

/** The adapter's side: the first problem found ends the publish before any call. */
export function throwFirst(problems: GiveUpChannelError[]): void {
  if (problems[0]) throw problems[0];
}

/** Each settings problem names its setting first ("categoryId is required": settings-check.ts). */
export function settingsProblem(message: string): PreflightProblem {
  const name = /^[A-Za-z0-9_]+/.exec(message)?.[0];
  return { field: name ? `settings.${name}` : "settings", message };
}

/** A catalog price that a channel taking only positive prices would refuse ("0", "-1.00"). */
export function notPositive(amount: string | null | undefined): boolean {
  const text = amount?.trim();
  if (!text) return false;
  return !/[1-9]/.test(text) || text.startsWith("-");
}

/**
 * The price checks of channels that refuse a zero price (eBay, Etsy): the product's and each
 * variant's used price.
 */
export function positivePriceProblems(
  channel: DestinationTarget["channel"],
  product: PublishableProduct,
  what: string,
): GiveUpChannelError[] {
  const problems: GiveUpChannelError[] = [];
  const refuse = (field: string) =>
    new GiveUpChannelError(
      `${channel} refuses product ${product.id}: ${field} must be more than 0`,
      {
        channel,
        kind: "validation",
        field,
        channelMessage: `price must be more than 0: ${what}`,
      },
    );
  if (notPositive(product.priceAmount)) problems.push(refuse("priceAmount"));
  else if (product.variants.some((v) => notPositive(v.priceAmount)))
    problems.push(refuse("variants.priceAmount"));
  return problems;
}

/**
 * The preflight of a channel whose adapter gives up on `problemsOf(product)` and on a
 * destination without a store address, before its first call: the same checks, all listed.
 */
export function productPreflight(
  problemsOf: (product: PublishableProduct) => GiveUpChannelError[],
) {
  return (_context: unknown, { product, destination }: PreflightInput): PreflightProblem[] => {
    const problems: PreflightProblem[] = [];
    try {
      requiredBaseUrl(destination.channel, destination);
    } catch {
      problems.push({
        field: "destination",
        message: "the destination has no store address: connect it again",
      });
    }
    return [...problems, ...problemsOf(product).map(problemOf)];
  };
}
