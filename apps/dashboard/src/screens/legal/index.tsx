// /legal: the documents the org agrees to, each with a link to its text; owners sign them here,
// members see who signs.
import { useEffect } from "react";
import { Link } from "@tanstack/react-router";
import type { LegalRecord } from "@catalog/gateway/api-types";
import { useLegalStatus, useSession } from "../../api/session";
import { PageHeader } from "../../ui/PageHeader";
import { StatusBadge } from "../../ui/StatusBadge";
import { ErrorMessage, Loading, Notice } from "../../ui/states";
import { formatDateTime } from "../../ui/format";
import { DOCUMENTS, ownerSigns } from "./documents";
import { SignButton } from "./SignButton";
import { SignedBy } from "./SignedBy";
import { useSignLegal } from "./useSignLegal";
import "./legal.css";

export function Legal() {
  const legal = useLegalStatus();
  const session = useSession();
  const signer = useSignLegal();
  const isOwner = session.user.role === "owner";

  useEffect(() => {
    document.title = "Legal · Catalog";
  }, []);

  return (
    <div className="page-narrow">
      <PageHeader
        title="Legal"
        description={`The documents ${session.org.name} agrees to. Read each one; an owner signs them for the organisation.`}
      />
      <ErrorMessage
        error={legal.error}
        title="Could not load the legal documents"
        onRetry={() => void legal.refetch()}
      />
      {legal.isLoading ? (
        <Loading label="Loading the documents" />
      ) : legal.data ? (
        <>
          {legal.data.allSigned ? (
            <Notice tone="ok">
              <p>Every document is signed at its current version.</p>
            </Notice>
          ) : (
            <Notice tone="warn">
              <p>
                Some documents are not signed at their current version yet.
                {isOwner ? "" : ` ${ownerSigns(legal.data.owners, session.org.name)}`}
              </p>
            </Notice>
          )}
          <div className="stack">
            {legal.data.documents.map((doc) => (
              <DocumentCard key={doc.type} doc={doc}>
                {!doc.signed && isOwner ? <SignButton doc={doc} signer={signer} /> : null}
              </DocumentCard>
            ))}
          </div>
        </>
      ) : null}
    </div>
  );
}

function DocumentCard({ doc, children }: { doc: LegalRecord; children: React.ReactNode }) {
  const info = DOCUMENTS[doc.type] ?? { name: doc.type, about: "" };
  const outdated = !doc.signed && doc.signedVersion !== null;
  return (
    <section className="card" aria-labelledby={`doc-${doc.type}`}>
      <div className="card-header">
        <div>
          <h2 id={`doc-${doc.type}`}>{info.name}</h2>
          <span className="muted small">Version {doc.currentVersion}</span>
        </div>
        <StatusBadge
          status={doc.signed ? "signed" : "unsigned"}
          label={doc.signed ? "Signed" : outdated ? "New version to sign" : "Not signed"}
        />
      </div>
      <div className="card-body stack" style={{ gap: 12 }}>
        <p className="muted" style={{ margin: 0 }}>
          {info.about}
        </p>
        <p style={{ margin: 0 }}>
          <Link to="/legal/$document" params={{ document: doc.type }} search={{}}>
            Read the {info.name.toLowerCase()}
          </Link>
        </p>
        {doc.signedVersion ? (
          <dl className="dl">
            <dt>Signed by</dt>
            <dd>
              <SignedBy doc={doc} />
            </dd>
            <dt>Signed on</dt>
            <dd>{formatDateTime(doc.signedAt)}</dd>
            <dt>Version signed</dt>
            <dd>
              {outdated ? (
                <>
                  <Link
                    to="/legal/$document"
                    params={{ document: doc.type }}
                    search={{ version: doc.signedVersion }}
                  >
                    {doc.signedVersion}
                  </Link>{" "}
                  (the current one is {doc.currentVersion})
                </>
              ) : (
                doc.signedVersion
              )}
            </dd>
          </dl>
        ) : null}
        {children}
      </div>
    </section>
  );
}
