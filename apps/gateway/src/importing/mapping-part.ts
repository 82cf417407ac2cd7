import { ServiceError } from "@catalog/db";
import {
  MAPPED_FIELDS,
  type ColumnMapping,
  type MappedField,
} from "@catalog/extract/upload-checks";

/** The largest `mapping` part, in bytes (UTF-8). */
export const MAX_MAPPING_BYTES = 32 * 1024;
/** The most columns a mapping may name. */
export const MAX_MAPPING_COLUMNS = 500;

/**
 * What the uploader asked for with the text part "mapping": a reading of the columns, the
 * automatic reading without templates ("automatic"), or nothing (an org template whose headers
 * are the file's is applied).
 */
export type MappingChoice =
  { kind: "given"; mapping: ColumnMapping } | { kind: "automatic" } | { kind: "template" };

const bad = (problem: string) =>
  new ServiceError(
    400,
    `multipart part "mapping": ${problem}; send JSON { "columns": [{ "column": "<header>", "field": "<field>", "name"?: "<option or attribute name>" }] } or "automatic"`,
  );

const FIELDS = new Set<string>(MAPPED_FIELDS);

/** The text part "mapping" of a document upload, checked for its shape (400 naming the part). */
export function documentMappingPart(value: string | undefined): MappingChoice {
  if (value === undefined || value.trim() === "") return { kind: "template" };
  if (value.trim() === "automatic") return { kind: "automatic" };
  if (Buffer.byteLength(value, "utf8") > MAX_MAPPING_BYTES)
    throw bad(`it is longer than ${MAX_MAPPING_BYTES / 1024} KB`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw bad(`it is not valid JSON (${(error as Error).message})`);
  }
  return { kind: "given", mapping: checkMapping(parsed, bad) };
}

/** A mapping's shape: `{ columns: [...] }` of known fields, at most 500 columns. */
export function checkMapping(value: unknown, fail: (problem: string) => Error): ColumnMapping {
  if (!isObject(value) || !Array.isArray(value.columns))
    throw fail('it must be an object with an array "columns"');
  const columns = value.columns as unknown[];
  if (columns.length > MAX_MAPPING_COLUMNS)
    throw fail(`it names ${columns.length} columns, more than ${MAX_MAPPING_COLUMNS}`);
  return {
    columns: columns.map((entry, i) => {
      const at = `columns[${i}]`;
      if (!isObject(entry)) throw fail(`${at} must be an object`);
      const { column, field, name } = entry;
      if (typeof column !== "string" || column.trim() === "" || column.length > 1000)
        throw fail(`${at}.column must be a header of the file (1 to 1000 characters)`);
      if (typeof field !== "string" || !FIELDS.has(field))
        throw fail(
          `${at}.field ${JSON.stringify(String(field).slice(0, 40))} is not a field; use one of ${MAPPED_FIELDS.join(", ")}`,
        );
      if (name !== undefined && name !== null && (typeof name !== "string" || name.length > 200))
        throw fail(`${at}.name must be text of at most 200 characters`);
      return {
        column,
        field: field as MappedField,
        ...(typeof name === "string" && name.trim() !== "" ? { name: name.trim() } : {}),
      };
    }),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
