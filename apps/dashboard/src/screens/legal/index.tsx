import { useEffect, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { LegalRecord } from "@catalog/gateway/api-types";
import { errorMessage, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { useLegalStatus, useSession } from "../../api/session";
import { PageHeader } from "../../ui/PageHeader";
import { StatusBadge } from "../../ui/StatusBadge";
import { ErrorMessage, Loading, Notice } from "../../ui/states";
import { useToast } from "../../ui/toast-context";
import { formatDateTime } from "../../ui/format";

const DOCUMENTS: Record<LegalRecord["type"], { name: string; about: string }> = {
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

export function Legal() {
  const legal = useLegalStatus();
  const session = useSession();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [errors, setErrors] = useState<Partial<Record<LegalRecord["type"], string>>>({});

  useEffect(() => {
    document.title = "Legal · Catalog";
  }, []);

  const sign = useMutation({
    mutationFn: (document: LegalRecord["type"]) => endpoints.legal.sign(document),
    onMutate: (document) => setErrors((e) => ({ ...e, [document]: undefined })),
    onSuccess: async (_record, document) => {
      await queryClient.invalidateQueries({ queryKey: qk.legal });
      toast.notify(`Signed the ${DOCUMENTS[document].name.toLowerCase()}`, "ok");
    },
    onError: (err, document) => setErrors((e) => ({ ...e, [document]: errorMessage(err) })),
  });

  const signedBy = (doc: LegalRecord) =>
    !doc.signedBy
      ? "—"
      : doc.signedBy === session.user.id
        ? `you (${session.user.email})`
        : (doc.signedByEmail ?? `a former user of ${session.org.name}`);

  return (
    <div className="page-narrow">
      <PageHeader
        title="Legal"
        description={`The documents ${session.org.name} has agreed to. Anyone in the organisation can sign them.`}
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
              <p>Some documents are not signed at their current version yet.</p>
            </Notice>
          )}
          <div className="stack">
            {legal.data.documents.map((doc) => {
              const info = DOCUMENTS[doc.type] ?? { name: doc.type, about: "" };
              const pending = sign.isPending && sign.variables === doc.type;
              const outdated = !doc.signed && doc.signedVersion !== null;
              return (
                <section key={doc.type} className="card" aria-labelledby={`doc-${doc.type}`}>
                  <div className="card-header">
                    <div>
                      <h2 id={`doc-${doc.type}`}>{info.name}</h2>
                      <span className="muted small">Version {doc.currentVersion}</span>
                    </div>
                    <StatusBadge
                      status={doc.signed ? "signed" : "unsigned"}
                      label={
                        doc.signed ? "Signed" : outdated ? "New version to sign" : "Not signed"
                      }
                    />
                  </div>
                  <div className="card-body stack" style={{ gap: 12 }}>
                    <p className="muted" style={{ margin: 0 }}>
                      {info.about}
                    </p>
                    {doc.signedVersion ? (
                      <dl className="dl">
                        <dt>Signed by</dt>
                        <dd>{signedBy(doc)}</dd>
                        <dt>Signed on</dt>
                        <dd>{formatDateTime(doc.signedAt)}</dd>
                        <dt>Version signed</dt>
                        <dd>
                          {doc.signedVersion}
                          {outdated ? ` (the current one is ${doc.currentVersion})` : ""}
                        </dd>
                      </dl>
                    ) : null}
                    {errors[doc.type] ? (
                      <div className="alert alert-bad" role="alert" style={{ margin: 0 }}>
                        <p>{errors[doc.type]}</p>
                      </div>
                    ) : null}
                    {!doc.signed ? (
                      <div>
                        <button
                          type="button"
                          className="btn btn-primary"
                          disabled={pending}
                          onClick={() => sign.mutate(doc.type)}
                        >
                          {pending
                            ? "Signing…"
                            : `Sign the ${info.name.toLowerCase()} (version ${doc.currentVersion})`}
                        </button>
                      </div>
                    ) : null}
                  </div>
                </section>
              );
            })}
          </div>
        </>
      ) : null}
    </div>
  );
}
