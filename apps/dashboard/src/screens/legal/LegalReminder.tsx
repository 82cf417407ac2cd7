// The reminder where signing matters, before publishing and before connecting a store (not a
// banner on every screen): the documents the org has not signed at their current version, a link
// to read each, and for an owner the button to sign it there; a member is told whom to ask.
import { Link } from "@tanstack/react-router";
import { useLegalStatus, useSession } from "../../api/session";
import { useFocusOnMount } from "../../ui/focus";
import { documentName, ownerSigns } from "./documents";
import { SignButton } from "./SignButton";
import { useSignLegal } from "./useSignLegal";
import "./legal.css";

const BEFORE = { publish: "Before you publish", connect: "Before you connect a store" } as const;

export function LegalReminder({ before }: { before: keyof typeof BEFORE }) {
  const legal = useLegalStatus();
  const session = useSession();
  const signer = useSignLegal();
  const focusOnMount = useFocusOnMount<HTMLParagraphElement>();
  if (!legal.data) return null;
  // Documents signed here stay listed, "Signed" where their button was (and focus with it), until
  // the screen is left.
  const shown = legal.data.documents.filter((d) => !d.signed || signer.signedHere(d.type));
  if (shown.length === 0) return null;
  const unsigned = shown.filter((d) => !d.signed);
  const isOwner = session.user.role === "owner";
  return (
    <section
      className={`alert ${unsigned.length ? "alert-warn" : "alert-ok"} legal-reminder`}
      aria-label="Legal documents to sign"
    >
      {unsigned.length ? (
        <p>
          <strong>{BEFORE[before]}:</strong> {session.org.name} has not signed{" "}
          {unsigned.length === 1 ? "this document" : "these documents"} at{" "}
          {unsigned.length === 1 ? "its" : "their"} current version.
        </p>
      ) : (
        <p>Every legal document is signed: nothing stands in the way.</p>
      )}
      <ul>
        {shown.map((doc) => (
          <li key={doc.type}>
            <Link to="/legal/$document" params={{ document: doc.type }} search={{}}>
              Read the {documentName(doc.type).toLowerCase()}
            </Link>
            {doc.signed ? (
              <p className="legal-signed" ref={focusOnMount}>
                Signed (version {doc.signedVersion})
              </p>
            ) : isOwner ? (
              <SignButton doc={doc} signer={signer} small />
            ) : null}
          </li>
        ))}
      </ul>
      {isOwner || !unsigned.length ? null : (
        <p>{ownerSigns(legal.data.owners, session.org.name)}</p>
      )}
    </section>
  );
}
