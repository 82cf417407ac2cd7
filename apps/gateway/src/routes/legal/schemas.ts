import { Type } from "typebox";

/** The database's LegalDocument names (routes/legal/index.ts checks that at compile time). */
export const LEGAL_DOCUMENT_NAMES = ["privacy", "terms", "dpa"] as const;
const DocumentType = Type.Enum([...LEGAL_DOCUMENT_NAMES]);
const Nullable = (s: ReturnType<typeof Type.String>) => Type.Union([s, Type.Null()]);

export const LegalRecordSchema = Type.Object({
  type: DocumentType,
  currentVersion: Type.String(),
  signed: Type.Boolean({ description: "Whether the current version is signed" }),
  signedVersion: Nullable(Type.String()),
  signedAt: Nullable(Type.String({ format: "date-time" })),
  signedBy: Nullable(Type.String({ description: "Id of the user who signed" })),
  signedByEmail: Nullable(
    Type.String({ description: "Email of the user who signed (null once that user is deleted)" }),
  ),
});

export const SignBodySchema = Type.Object(
  {
    document: DocumentType,
    version: Type.Optional(
      Type.String({ maxLength: 32, description: "Defaults to the current version" }),
    ),
  },
  { additionalProperties: false },
);

export const LegalStatusSchema = Type.Object({
  documents: Type.Array(LegalRecordSchema),
  allSigned: Type.Boolean(),
});
