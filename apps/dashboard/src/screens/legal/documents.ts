// What the dashboard says about each legal document, and whom a member asks to sign.
import type { LegalRecord } from "@catalog/gateway/api-types";

export type LegalType = LegalRecord["type"];

export const DOCUMENTS: Record<LegalType, { name: string; about: string }> = {
  privacy: {
    name: "Privacy policy",
    about: "How the service handles personal data in your catalog and account.",
  },
  terms: {
    name: "Terms of service",
    about: "The terms under which your organisation uses the service.",
  },
  dpa: {
    name: "Data processing agreement",
    about: "The agreement covering personal data the service processes for you.",
  },
};

export const documentName = (type: LegalType): string => DOCUMENTS[type]?.name ?? type;

/** "a@x", "a@x or b@x", "a@x, b@x or c@x". */
export function ownersText(owners: readonly string[]): string {
  if (owners.length <= 1) return owners[0] ?? "an owner";
  return `${owners.slice(0, -1).join(", ")} or ${owners[owners.length - 1]}`;
}

/** What a member reads where an owner would find a sign button. */
export const ownerSigns = (owners: readonly string[], org: string): string =>
  owners.length === 0
    ? `Only an owner of ${org} signs these documents.`
    : `Only an owner of ${org} signs these documents: ask ${ownersText(owners)}.`;
