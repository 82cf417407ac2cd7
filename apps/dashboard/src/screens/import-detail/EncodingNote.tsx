import { Link } from "@tanstack/react-router";
import type { Import } from "@catalog/gateway/api-types";
import { ENCODING_FIELD_ANCHOR, encodingLabel, encodingText } from "../../lib/imports";

/**
 * "Text read as windows-1251 (detected)", a CSV/TSV's text encoding, on a line of its own under
 * the header's first; when it was detected, a quiet way to import the file again naming another,
 * for when letters come out wrong.
 */
export function EncodingNote({
  encoding,
  again,
}: {
  encoding: NonNullable<Import["encoding"]>;
  again: boolean;
}) {
  const label = encodingLabel(encoding.name);
  return (
    <span className="header-sub">
      Text{" "}
      <span className="nowrap" title={label ? `Text encoding: ${label}` : undefined}>
        read as {encodingText(encoding)}
      </span>
      {again && encoding.source === "detected" ? (
        <>
          {" · "}
          <Link
            to="/imports"
            search={{ tab: "file" }}
            hash={ENCODING_FIELD_ANCHOR}
            className="quiet-link"
          >
            Letters wrong? Import it again in another encoding
          </Link>
        </>
      ) : null}
    </span>
  );
}
