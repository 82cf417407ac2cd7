// /legal/:document (?version= for an earlier one): a legal document's text, as the gateway serves
// it (HTML cleaned against the descriptions' allow-list), with whether the org signed it and, for
// an owner, the button to sign it.
import { useEffect, useRef } from "react";
import { Link, getRouteApi } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { isStatus, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { useLegalStatus, useSession } from "../../api/session";
import { formatDateTime } from "../../ui/format";
import { PageHeader } from "../../ui/PageHeader";
import { Empty, ErrorMessage, Loading, Notice } from "../../ui/states";
import { ownerSigns } from "./documents";
import { SignButton } from "./SignButton";
import { SignedBy } from "./SignedBy";
import { useSignLegal } from "./useSignLegal";
import "./legal.css";

const route = getRouteApi("/app/legal/$document");

export function LegalDocumentScreen() {
  const { document: name } = route.useParams();
  const { version } = route.useSearch();
  const session = useSession();
  const legal = useLegalStatus();
  const signer = useSignLegal();
  const text = useQuery({
    queryKey: qk.legalDocument(name, version),
    queryFn: () => endpoints.legal.document(name, version),
    staleTime: Infinity,
  });

  useEffect(() => {
    document.title = `${text.data?.title ?? "Legal"} · Catalog`;
  }, [text.data?.title]);

  // Signed here: the button is gone, so focus goes to the words that replace it.
  const signedNote = useRef<HTMLParagraphElement>(null);
  const justSigned = text.data ? signer.signedHere(text.data.type) : false;
  useEffect(() => {
    if (justSigned) signedNote.current?.focus();
  }, [justSigned]);

  const breadcrumb = <Link to="/legal">Legal</Link>;
  if (text.isLoading)
    return (
      <div className="page-narrow">
        <Loading label="Loading the document" />
      </div>
    );
  if (!text.data) {
    return (
      <div className="page-narrow">
        <PageHeader title="Legal document" breadcrumb={breadcrumb} />
        {isStatus(text.error, 404) ? (
          <Empty
            title="There is no such document"
            action={
              <Link to="/legal" className="btn">
                See the legal documents
              </Link>
            }
          >
            The link may be wrong, or that version was never published.
          </Empty>
        ) : (
          <ErrorMessage
            error={text.error}
            title="Could not load the document"
            onRetry={() => void text.refetch()}
          />
        )}
      </div>
    );
  }

  const doc = text.data;
  const record = legal.data?.documents.find((d) => d.type === doc.type);
  const isOwner = session.user.role === "owner";
  return (
    <div className="page-narrow">
      <PageHeader
        breadcrumb={breadcrumb}
        title={doc.title}
        description={
          doc.current ? (
            `Version ${doc.version}, the one in force.`
          ) : (
            <>
              Version {doc.version}, an earlier one.{" "}
              <Link to="/legal/$document" params={{ document: doc.type }} search={{}}>
                Read the current version
              </Link>
            </>
          )
        }
      />
      {doc.current && record ? (
        record.signed ? (
          <Notice tone="ok">
            <p>
              Signed for {session.org.name} by <SignedBy doc={record} /> on{" "}
              {formatDateTime(record.signedAt)}.
            </p>
          </Notice>
        ) : isOwner ? null : (
          <Notice tone="warn">
            <p>
              {session.org.name} has not signed this version yet.{" "}
              {ownerSigns(legal.data?.owners ?? [], session.org.name)}
            </p>
          </Notice>
        )
      ) : null}
      <article className="card" aria-label={`${doc.title}, version ${doc.version}`}>
        <div
          className="card-body description legal-text"
          dangerouslySetInnerHTML={{ __html: doc.html }}
        />
      </article>
      {doc.current && record && isOwner && (!record.signed || justSigned) ? (
        <section className="section card" aria-label={`Sign the ${doc.title.toLowerCase()}`}>
          <div className="card-body stack" style={{ gap: 12 }}>
            {record.signed ? (
              <p ref={signedNote} tabIndex={-1} role="status" style={{ margin: 0 }}>
                Signed: {session.org.name} agrees to version {record.currentVersion}.
              </p>
            ) : (
              <>
                <p style={{ margin: 0 }}>
                  Signing records that {session.org.name} agrees to this version, signed by you.
                </p>
                <SignButton doc={record} signer={signer} />
              </>
            )}
          </div>
        </section>
      ) : null}
    </div>
  );
}
