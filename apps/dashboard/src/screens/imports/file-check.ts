// The file form's checks and words: which files an import reads, the currencies offered for
// prices without one, and a file's size as people read it.

export const FILE_TYPES = [".csv", ".tsv", ".xlsx", ".json", ".ndjson", ".xml"];
/** The file input's `accept`: the extensions and their media types. */
export const FILE_ACCEPT = [
  ...FILE_TYPES,
  "text/csv",
  "text/tab-separated-values",
  "application/json",
  "application/xml",
  "text/xml",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
].join(",");
export const CURRENCIES = [
  "USD",
  "EUR",
  "GBP",
  "CAD",
  "AUD",
  "NZD",
  "CHF",
  "SEK",
  "NOK",
  "DKK",
  "PLN",
  "CZK",
  "JPY",
  "CNY",
  "INR",
  "BRL",
  "MXN",
  "ZAR",
];

/** Why this file cannot be imported (wrong kind, empty), or null. */
export function fileProblem(file: { name: string; size: number }): string | null {
  const name = file.name.toLowerCase();
  if (!FILE_TYPES.some((ext) => name.endsWith(ext)))
    return `“${file.name}” is not a file this import reads: choose a ${FILE_TYPES.join(", ")} file`;
  if (file.size === 0) return `“${file.name}” is empty`;
  return null;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
