// Formatting shared by the screens: money, times, ids.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

export function formatMoney(
  money: { amount: string; currency: string } | null | undefined,
): string {
  if (!money) return "—";
  const n = Number(money.amount);
  if (!Number.isFinite(n)) return `${money.amount} ${money.currency}`;
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency: money.currency }).format(
      n,
    );
  } catch {
    return `${money.amount} ${money.currency}`;
  }
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
}

const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: "medium" });
const shortDateTime = new Intl.DateTimeFormat(undefined, {
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
});

/** Compact for tables: the time alone today, else a short date and time. */
export function formatWhen(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toDateString() === new Date().toDateString()
    ? timeOnly.format(d)
    : shortDateTime.format(d);
}

/** Readable names of product fields, for diffs and errors. */
export const FIELD_LABELS: Record<string, string> = {
  title: "Title",
  sku: "SKU",
  description: "Description",
  price: "Price",
  images: "Images",
  brand: "Brand",
  gtin: "GTIN",
  mpn: "MPN",
  availability: "Availability",
  quantity: "Stock",
  variants: "Variants",
  attributes: "Attributes",
  sourceUrl: "Source page",
};

/** "3 minutes ago", "in 20 seconds" */
export function formatRelative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return "—";
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return iso;
  const s = Math.round((t - now) / 1000);
  const abs = Math.abs(s);
  if (abs < 10) return "just now";
  if (abs < 45) return relative.format(s, "second");
  if (abs < 45 * 60) return relative.format(Math.round(s / 60), "minute");
  if (abs < 22 * 3600) return relative.format(Math.round(s / 3600), "hour");
  return relative.format(Math.round(s / 86400), "day");
}

export function shortId(id: string | null | undefined): string {
  if (!id) return "—";
  return id.length > 10 ? id.slice(0, 8) : id;
}

/** schema.org availability names, readable: "InStock" -> "In stock" */
export function formatAvailability(value: string | null | undefined): string {
  if (!value) return "—";
  const name = value.replace(/^https?:\/\/schema\.org\//, "");
  return name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/^./, (c) => c.toUpperCase())
    .replace(/ ([A-Z])/g, (_, c: string) => ` ${c.toLowerCase()}`);
}

export const AVAILABILITY = [
  "InStock",
  "OutOfStock",
  "PreOrder",
  "BackOrder",
  "LimitedAvailability",
  "Discontinued",
  "SoldOut",
  "InStoreOnly",
  "OnlineOnly",
] as const;

export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "object" && value && "amount" in value && "currency" in value) {
    return formatMoney(value as { amount: string; currency: string });
  }
  return JSON.stringify(value);
}

/** The noun for `n` things: `plural(1, "row")` is "row", `plural(3, "entry", "entries")`. */
export const plural = (n: number, one: string, many = `${one}s`) => (n === 1 ? one : many);

/** `n` things, counted: "1 row", "1,200 products", "3 entries". The one way screens count. */
export const countOf = (n: number, one: string, many?: string) =>
  `${n.toLocaleString()} ${plural(n, one, many)}`;
