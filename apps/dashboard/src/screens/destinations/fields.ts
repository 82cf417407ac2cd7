// A channel's fields in forms: the settings a store has and the ones the user changed, a 422's
// message split onto the fields it names, and what connecting still needs.
import type { ChannelField, Destination } from "@catalog/gateway/api-types";

export interface FieldErrors {
  byField: Record<string, string>;
  general: string[];
}
export const NO_ERRORS: FieldErrors = { byField: {}, general: [] };

/** An example value as a hint ("e.g. EBAY_US"), so an empty field never looks filled in. */
export const exampleHint = (placeholder: string | null) =>
  placeholder ? `e.g. ${placeholder}` : undefined;

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Splits a 422's message into the settings fields it names; the rest shows at the top of the form.
 */
export function fieldErrors(message: string, fields: ChannelField[]): FieldErrors {
  const byField: Record<string, string> = {};
  const general: string[] = [];
  const text = message.replace(/^settings:\s*/i, "");
  const parts = text
    .split(/;\s*/)
    .map((s) => s.trim())
    .filter(Boolean);
  const byLength = [...fields].sort((a, b) => b.name.length - a.name.length);
  const pattern = (f: ChannelField) =>
    new RegExp(`(^|[^A-Za-z0-9_])${escapeRegExp(f.name)}(?=[^A-Za-z0-9_]|$)`);
  for (const part of parts) {
    const field = byLength.find((f) => pattern(f).test(part));
    if (field) {
      // "categoryId is required" reads as "Category ID is required", the label the user sees.
      const said = capitalised(
        part.replace(pattern(field), (_m, lead: string) => `${lead}${field.label}`),
      );
      const before = byField[field.name];
      byField[field.name] = before ? `${before}; ${said}` : said;
    } else {
      general.push(capitalised(part));
    }
  }
  return { byField, general };
}

/** A store's settings as the form's text values ("" for a setting it does not have). */
export function settingsValues(
  fields: ChannelField[],
  settings: Destination["settings"],
): Record<string, string> {
  return Object.fromEntries(
    fields.map((f) => {
      const v = settings[f.name];
      return [
        f.name,
        v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v),
      ];
    }),
  );
}

/** Only what the user changed: a trimmed value, or null to remove a setting they emptied. */
export function changedSettings(
  fields: ChannelField[],
  values: Record<string, string>,
  initial: Record<string, string>,
): Record<string, string | null> {
  const settings: Record<string, string | null> = {};
  for (const f of fields) {
    const v = (values[f.name] ?? "").trim();
    if (v !== (initial[f.name] ?? "")) settings[f.name] = v === "" ? null : v;
  }
  return settings;
}

/**
 * The connect form's values to send (trimmed, empty ones left out) and, by field, why the others
 * cannot go: required and missing, or not of the shape the channel takes (its `pattern`).
 */
export function connectParams(
  fields: ChannelField[],
  values: Record<string, string>,
): { params: Record<string, string>; missing: Record<string, string> } {
  const missing: Record<string, string> = {};
  const params: Record<string, string> = {};
  for (const f of fields) {
    const v = (values[f.name] ?? "").trim();
    if (!v && f.required) missing[f.name] = `Enter the ${f.label.toLowerCase()}`;
    else if (v && f.pattern && !new RegExp(f.pattern).test(v))
      missing[f.name] = f.placeholder
        ? `${f.label} should look like ${f.placeholder}`
        : `${f.label} is not in the form the store takes`;
    if (v) params[f.name] = v;
  }
  return { params, missing };
}

/**
 * A refused connect's reason (the gateway's `connectError`) in the form's words: on the field it
 * names ("querystring/shop must be ..." -> "Shop domain must be ..."), else for the whole form.
 */
export function connectRefusal(
  message: string,
  fields: ChannelField[],
): { field: string; text: string } | { field: null; text: string } {
  const named = /^querystring\/([A-Za-z0-9_]+)\s+(.*)$/s.exec(message);
  const field = named ? fields.find((f) => f.name === named[1]) : undefined;
  if (named && field) return { field: field.name, text: `${field.label} ${named[2]}` };
  return { field: null, text: capitalised(message) };
}
