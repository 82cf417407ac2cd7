import type { LegalRecord } from "@catalog/gateway/api-types";
import { useSession } from "../../api/session";

/** Who signed a document: "you (email)", their email, or a former user. */
export function SignedBy({ doc }: { doc: LegalRecord }) {
  const session = useSession();
  if (!doc.signedBy) return <>—</>;
  if (doc.signedBy === session.user.id) return <>you ({session.user.email})</>;
  return <>{doc.signedByEmail ?? `a former user of ${session.org.name}`}</>;
}
