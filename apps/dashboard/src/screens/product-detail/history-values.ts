// How a product's history reads: action names, empty values, a changed value in a few words.
import { descriptionText } from "../../ui/description";
import { formatAvailability, formatValue } from "../../ui/format";

export const ACTION_LABELS: Record<string, string> = {
  created: "Created",
  updated: "Edited",
  deleted: "Deleted",
  imported: "Imported",
};

/** Nothing, an empty string, list or object: a change from nothing to nothing says nothing. */
export function isEmpty(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    value === "" ||
    (Array.isArray(value) && value.length === 0) ||
    (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0)
  );
}

/**
 * A history value, readable: money as money, lists by count when long, a description as its text,
 * long text cut.
 */
export function describe(field: string, value: unknown): string {
  if (field === "description" && typeof value === "string") return cut(descriptionText(value));
  if (field === "availability" && typeof value === "string") return formatAvailability(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return "none";
    const shown = value
      .slice(0, 3)
      .map((v) =>
        typeof v === "string" ? v : field === "variants" ? variantText(v) : JSON.stringify(v),
      )
      .join(", ");
    return value.length > 3 ? `${shown} and ${value.length - 3} more` : shown;
  }
  if (value && typeof value === "object" && !("amount" in value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "none";
  }
  return cut(formatValue(value));
}

/** A variant in a few words: its name and, when known, its stock ("Large (stock 0)"). */
function variantText(v: unknown): string {
  if (!v || typeof v !== "object") return JSON.stringify(v);
  const { title, sku, quantity } = v as { title?: unknown; sku?: unknown; quantity?: unknown };
  const name = typeof title === "string" ? title : typeof sku === "string" ? sku : "variant";
  return typeof quantity === "number" ? `${name} (stock ${quantity})` : name;
}

const cut = (text: string) => (text.length > 160 ? `${text.slice(0, 157)}…` : text);
