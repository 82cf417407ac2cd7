import type { Db } from "./client.js";
import type { LegalDocument } from "./generated/enums.js";
import { invalid } from "./service-error.js";

/** The versions now in force. Publishing a new version makes orgs sign again. */
export const CURRENT_LEGAL_VERSIONS: Readonly<Record<LegalDocument, string>> = {
  privacy: "2026-01",
  terms: "2026-01",
  dpa: "2026-01",
};

export const LEGAL_DOCUMENTS = Object.keys(CURRENT_LEGAL_VERSIONS) as LegalDocument[];

/** Each document's name, as the dashboard and the documents' texts call it. */
export const LEGAL_TITLES: Readonly<Record<LegalDocument, string>> = {
  privacy: "Privacy policy",
  terms: "Terms of service",
  dpa: "Data processing agreement",
};

export interface LegalRecordView {
  type: LegalDocument;
  currentVersion: string;
  signed: boolean;
  signedVersion: string | null;
  signedAt: string | null;
  signedBy: string | null;
  /** The signer's email, while that user exists. */
  signedByEmail: string | null;
}

export async function legalStatus(
  db: Db,
  orgId: string,
): Promise<{ documents: LegalRecordView[]; allSigned: boolean; owners: string[] }> {
  const rows = await db.legalAcceptance.findMany({
    where: { orgId },
    orderBy: { signedAt: "desc" },
  });
  const signers = await db.user.findMany({
    where: { id: { in: [...new Set(rows.map((r) => r.signedBy))] } },
    select: { id: true, email: true },
  });
  const emailOf = (id: string | undefined) => signers.find((u) => u.id === id)?.email ?? null;
  const documents = LEGAL_DOCUMENTS.map((type): LegalRecordView => {
    const currentVersion = CURRENT_LEGAL_VERSIONS[type];
    const latest = rows.find((r) => r.document === type);
    return {
      type,
      currentVersion,
      signed: rows.some((r) => r.document === type && r.version === currentVersion),
      signedVersion: latest?.version ?? null,
      signedAt: latest?.signedAt.toISOString() ?? null,
      signedBy: latest?.signedBy ?? null,
      signedByEmail: emailOf(latest?.signedBy),
    };
  });
  // Only owners sign: a member is told whom to ask.
  const owners = await db.user.findMany({
    where: { orgId, role: "owner" },
    select: { email: true },
    orderBy: { email: "asc" },
  });
  return {
    documents,
    allSigned: documents.every((d) => d.signed),
    owners: owners.map((o) => o.email),
  };
}

/**
 * Records that `userId` (an owner: the route checks the role) accepted `document`. Signing the same version again keeps the first record.
 */
export async function signLegal(
  db: Db,
  orgId: string,
  userId: string,
  document: LegalDocument,
  version?: string,
): Promise<LegalRecordView> {
  const currentVersion = CURRENT_LEGAL_VERSIONS[document];
  if (version !== undefined && version !== currentVersion) {
    throw invalid(
      `version: ${document} is at version ${currentVersion}; "${version}" cannot be signed`,
    );
  }
  const row = await db.legalAcceptance.upsert({
    where: { orgId_document_version: { orgId, document, version: currentVersion } },
    create: { orgId, document, version: currentVersion, signedBy: userId },
    update: {},
  });
  const signer = await db.user.findUnique({ where: { id: row.signedBy }, select: { email: true } });
  return {
    type: document,
    currentVersion,
    signed: true,
    signedVersion: row.version,
    signedAt: row.signedAt.toISOString(),
    signedBy: row.signedBy,
    signedByEmail: signer?.email ?? null,
  };
}
