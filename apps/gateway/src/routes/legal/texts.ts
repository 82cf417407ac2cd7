// The legal documents' texts: one file per document and version in apps/gateway/legal (its
// README says how a new version is published). Read once, cleaned with the product descriptions'
// allow-list, and kept.
import { readFile } from "node:fs/promises";
import {
  CURRENT_LEGAL_VERSIONS,
  LEGAL_TITLES,
  ServiceError,
  type LegalDocument,
} from "@catalog/db";
import { storedDescription } from "@catalog/db/description";

/** apps/gateway/legal, from src/routes/legal or dist/routes/legal alike. */
const TEXTS = new URL("../../../legal/", import.meta.url);

export interface LegalText {
  type: LegalDocument;
  version: string;
  current: boolean;
  title: string;
  html: string;
}

/** The texts read so far (a version without a file is not kept: anyone may ask for any). */
const read = new Map<string, Promise<string | null>>();

async function textOf(document: LegalDocument, version: string): Promise<string | null> {
  const key = `${document}/${version}`;
  let html = read.get(key);
  if (!html) {
    html = readFile(new URL(`${key}.html`, TEXTS), "utf8").then(
      (raw) => storedDescription(raw),
      (err: NodeJS.ErrnoException) => {
        read.delete(key);
        if (err.code === "ENOENT") return null;
        throw err;
      },
    );
    read.set(key, html);
  }
  return html;
}

const isDocument = (name: string): name is LegalDocument => name in CURRENT_LEGAL_VERSIONS;

/**
 * The text of `name` at `version` (the current one by default); 404 naming what exists when the
 * document or that version has no text.
 */
export async function legalText(name: string, version?: string): Promise<LegalText> {
  if (!isDocument(name))
    throw new ServiceError(
      404,
      `there is no legal document "${name}": the documents are ${Object.keys(CURRENT_LEGAL_VERSIONS).join(", ")}`,
    );
  const current = CURRENT_LEGAL_VERSIONS[name];
  const wanted = version ?? current;
  const html = await textOf(name, wanted);
  if (html === null)
    throw new ServiceError(
      404,
      `the ${LEGAL_TITLES[name].toLowerCase()} has no version "${wanted}": the current one is ${current}`,
    );
  return {
    type: name,
    version: wanted,
    current: wanted === current,
    title: LEGAL_TITLES[name],
    html,
  };
}
