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
  owners: Type.Array(Type.String(), {
    description: "Emails of the org's owners: only an owner signs for the org",
  }),
});

export const LegalDocumentParamsSchema = Type.Object({
  document: Type.String({
    pattern: "^[a-z]{1,32}$",
    description: `One of ${LEGAL_DOCUMENT_NAMES.join(", ")}; another name is 404`,
  }),
});

export const LegalDocumentQuerySchema = Type.Object(
  {
    version: Type.Optional(
      Type.String({
        pattern: "^[0-9A-Za-z][0-9A-Za-z.-]{0,31}$",
        description: "An earlier version (the one an org signed, say); the current one by default",
      }),
    ),
  },
  { additionalProperties: false },
);

export const LegalTextSchema = Type.Object({
  type: DocumentType,
  version: Type.String(),
  current: Type.Boolean({ description: "Whether this is the version in force" }),
  title: Type.String(),
  html: Type.String({
    description:
      "The text as HTML, cleaned with the product descriptions' allow-list (paragraphs, headings, lists, links)",
  }),
});
