// One wording for people of why a publish fails or would fail: "Check first"'s problems, a run's
// failures, the sync logs. Field names as the forms label them, the product's and the store's
// names, what to do; ids and the API's words stay behind a details toggle.
import type { ChannelInfo, PublishCheck, SyncLog } from "@catalog/gateway/api-types";

/** A reason a publish would be or was refused: the field (as the API names it) and why. */
export type Problem = PublishCheck["items"][number]["problems"][number];
/** A failed publish's classification (GET /api/sync-logs, a run's cells). */
export type Failure = NonNullable<SyncLog["failure"]>;

const PRODUCT_FIELDS: Record<string, string> = {
  title: "Title",
  price: "Price",
  sku: "SKU",
  description: "Description",
  images: "Images",
  product: "Product",
  variants: "Variants",
  "variants.sku": "Variant SKUs",
  "variants.price": "Variant prices",
  "variants.options": "Variant options",
  destination: "Store",
};

export const isStoreProblem = (p: Problem) =>
  p.field === "destination" || p.field === "settings" || p.field.startsWith("settings.");

/**
 * "Category id" and "missing" from { field: "settings.categoryId", message: "categoryId is
 * required" }; "Price" and "missing" from { field: "price", message: "price is required" }.
 */
export function problemWords(
  p: Problem,
  info: ChannelInfo | undefined,
): { label: string; text: string } {
  const setting = p.field.startsWith("settings.") ? p.field.slice("settings.".length) : null;
  const name = setting ?? p.field;
  // A channel's attribute (Amazon's item_name) is filled by the product's own attribute of that
  // name.
  const attribute = p.field.startsWith("attributes.") ? p.field.slice("attributes.".length) : null;
  const label = setting
    ? (info?.settingsFields.find((f) => f.name === setting)?.label ?? setting)
    : attribute
      ? `Attribute “${attribute}”`
      : (PRODUCT_FIELDS[p.field] ?? p.field);
  // Messages start with the field's own name ("price is required"): the label says it already.
  let text = p.message.startsWith(`${name} `) ? p.message.slice(name.length + 1) : p.message;
  if (text === "is required") text = "missing";
  else if (text.startsWith("is required: "))
    text = `missing: ${text.slice("is required: ".length)}`;
  return { label, text };
}

/** A store's settings problems ("categoryId is required; paymentPolicyId is required"), each. */
export function settingsProblems(reason: string): Problem[] {
  return reason
    .split(/;\s*/)
    .filter(Boolean)
    .map((message) => {
      const name = /^[A-Za-z0-9_]+/.exec(message)?.[0];
      return { field: name ? `settings.${name}` : "settings", message };
    });
}

/** "Category id missing, Payment policy id missing". */
export function problemsText(problems: Problem[], info: ChannelInfo | undefined): string {
  return problems
    .map((p) => {
      const { label, text } = problemWords(p, info);
      return `${label} ${text}`;
    })
    .join(", ");
}

const lowerLabel = (label: string) => (label === label.toUpperCase() ? label : label.toLowerCase());
const withArticle = (label: string) =>
  label.endsWith("s") ? label : `${/^[aeiou]|^SKU/i.test(label) ? "an" : "a"} ${label}`;

/** Where the merchant fixes a failure; `retry` when time alone can change it. */
export type FixPlace = "product" | "store" | "retry" | null;

/**
 * A failure in a merchant's words: who (a product's title, or "3 products"), what is wrong and
 * what to do. Null when the failure was not classified (an old record): show its message.
 */
export function failureText(
  failure: Failure,
  names: { products: string; many: boolean; store: string },
  info: ChannelInfo | undefined,
): { text: string; fix: FixPlace } {
  const { products, many, store } = names;
  switch (failure.kind) {
    case "product": {
      if (!failure.field || failure.field === "product" || !failure.reason)
        return {
          text: `${store} refused ${products}${failure.reason ? `: ${failure.reason}` : ""}. Check the product, then publish again.`,
          fix: "product",
        };
      const { label, text } = problemWords({ field: failure.field, message: failure.reason }, info);
      const field = lowerLabel(label);
      if (text === "missing")
        return {
          text: `${products} ${many ? "have" : "has"} no ${field}. Add ${withArticle(field)}, then publish again.`,
          fix: "product",
        };
      return {
        text: `${products}: ${field} ${text}. Change it, then publish again.`,
        fix: "product",
      };
    }
    case "settings":
      return {
        text: `${store} is missing settings${
          failure.reason ? ` (${problemsText(settingsProblems(failure.reason), info)})` : ""
        }. Fill them in the store's settings, then publish again.`,
        fix: "store",
      };
    case "access":
      return {
        text: `${store} no longer accepts this service's access. Connect the store again, then publish again.`,
        fix: "store",
      };
    case "temporary":
      return {
        text: `${store} could not be reached, or asked to wait, until the attempts ran out. Retry in a moment.`,
        fix: "retry",
      };
  }
}

/** Whether retrying a run can change this cell now (one never classified: as before). */
export const retryCanChange = (c: {
  status: string;
  failure: { retryable: boolean } | null;
}): boolean => (c.status === "failed" || c.status === "dead") && (c.failure?.retryable ?? true);
