// What the Import screens and the route table share about imports: the tabs of /imports, the
// text encodings a CSV/TSV can be named in, status labels, and how an encoding and a column
// mapping read on screen.
import type { Import } from "@catalog/gateway/api-types";
import type { ImportMappingUse } from "../api/column-types";

/** The tabs of /imports, in the address (`?tab=`), so a link can open the file form. */
export const IMPORT_TABS = ["urls", "file", "extension"] as const;
export type ImportTab = (typeof IMPORT_TABS)[number];

/** Where the file form's encoding select is: "Import it again in another encoding" links here. */
export const ENCODING_FIELD_ANCHOR = "text-encoding";

/**
 * Text encodings a CSV/TSV can be named in ("encoding" part; the gateway takes any name iconv-lite
 * knows, these are the common ones), as the gateway reports them back, grouped for the select.
 */
export const TEXT_ENCODINGS: { group: string; options: { name: string; label: string }[] }[] = [
  { group: "Unicode", options: [{ name: "utf-8", label: "Unicode (UTF-8)" }] },
  {
    group: "European",
    options: [
      { name: "windows-1252", label: "Western European (windows-1252)" },
      { name: "windows-1250", label: "Central European (windows-1250)" },
      { name: "iso-8859-2", label: "Central European (ISO-8859-2)" },
      { name: "windows-1251", label: "Cyrillic (windows-1251)" },
      { name: "koi8-r", label: "Cyrillic (KOI8-R)" },
      { name: "windows-1253", label: "Greek (windows-1253)" },
      { name: "windows-1254", label: "Turkish (windows-1254)" },
      { name: "windows-1257", label: "Baltic (windows-1257)" },
    ],
  },
  {
    group: "Asian",
    options: [
      { name: "shift_jis", label: "Japanese (Shift_JIS)" },
      { name: "gb18030", label: "Chinese, simplified (GB18030)" },
      { name: "big5", label: "Chinese, traditional (Big5)" },
      { name: "euc-kr", label: "Korean (EUC-KR)" },
    ],
  },
];

export const IMPORT_STATUS_LABELS: Record<Import["status"], string> = {
  previewing: "Previewing",
  ready: "Preview ready",
  storing: "Storing",
  stored: "Stored",
  failed: "Failed",
  discarded: "Discarded",
};

/** Being read or stored: its progress moves. */
export const isWorking = (s: Import["status"] | undefined): boolean =>
  s === "previewing" || s === "storing";

/** "windows-1251 (detected)", "shift_jis (named)": the name the gateway used and who chose it. */
export function encodingText(encoding: NonNullable<Import["encoding"]>): string {
  return `${encoding.name} (${encoding.source})`;
}

/** "Cyrillic (windows-1251)" for the common ones, for a title; null for others. */
export function encodingLabel(name: string): string | null {
  for (const g of TEXT_ENCODINGS) for (const o of g.options) if (o.name === name) return o.label;
  return null;
}

/** How an import's columns were read, when not automatically (the import view's `mapping`). */
export function importMapping(item: Import): ImportMappingUse | null {
  return item.mapping ?? null;
}

/** "Columns read with your saved mapping “Supplier A”", or "…with the mapping you chose". */
export function mappingText(mapping: ImportMappingUse): string {
  if (mapping.source === "given") return "Columns read with the mapping you chose";
  return mapping.templateName
    ? `Columns read with your saved mapping “${mapping.templateName}”`
    : "Columns read with a saved mapping (deleted since)";
}

/** A page import whose every page failed: nothing to preview or store ("Nothing could be read"). */
export const nothingRead = (i: Import): boolean =>
  i.kind === "urls" &&
  i.status === "ready" &&
  i.counts.error > 0 &&
  i.counts.create + i.counts.update + i.counts.unchanged === 0;
