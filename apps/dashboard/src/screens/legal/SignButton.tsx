import type { LegalRecord } from "@catalog/gateway/api-types";
import { documentName } from "./documents";
import type { LegalSigner } from "./useSignLegal";
import { Notice } from "../../ui/states";

/**
 * An owner's "Sign" for one document at its current version, and why it was refused; `small`
 * where it sits beside a screen's own main action (publishing, connecting).
 */
export function SignButton({
  doc,
  signer,
  small,
}: {
  doc: LegalRecord;
  signer: LegalSigner;
  small?: boolean;
}) {
  const name = documentName(doc.type).toLowerCase();
  const error = signer.error(doc.type);
  return (
    <div className="legal-sign">
      <button
        type="button"
        className={small ? "btn btn-sm" : "btn btn-primary"}
        disabled={signer.pending(doc.type)}
        onClick={() => signer.sign(doc.type)}
      >
        {signer.pending(doc.type) ? (
          "Signing…"
        ) : (
          <span>
            Sign the {name} <span className="nowrap">(version {doc.currentVersion})</span>
          </span>
        )}
      </button>
      {error ? (
        <Notice tone="bad">
          <p>{error}</p>
        </Notice>
      ) : null}
    </div>
  );
}
