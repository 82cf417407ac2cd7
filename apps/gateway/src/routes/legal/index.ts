import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { LEGAL_DOCUMENTS, legalStatus, signLegal, type Db } from "@catalog/db";
import { principalOf } from "../../plugins/auth.js";
import { errorResponses } from "../../schemas/common.js";

const DocumentType = Type.Enum(LEGAL_DOCUMENTS);
const Nullable = (s: ReturnType<typeof Type.String>) => Type.Union([s, Type.Null()]);

const LegalRecordSchema = Type.Object({
  type: DocumentType,
  currentVersion: Type.String(),
  signed: Type.Boolean({ description: "Whether the current version is signed" }),
  signedVersion: Nullable(Type.String()),
  signedAt: Nullable(Type.String({ format: "date-time" })),
  signedBy: Nullable(Type.String({ description: "Id of the user who signed" })),
});

const SignBodySchema = Type.Object(
  { document: DocumentType, version: Type.Optional(Type.String({ maxLength: 32, description: "Defaults to the current version" })) },
  { additionalProperties: false },
);

export const legalRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook("onRequest", app.requireSession);
  const common = { tags: ["legal"], security: [{ session: [] }] };

  app.get("/legal/status", {
    schema: {
      ...common,
      summary: "Which legal documents (Privacy, Terms, DPA) the org has signed",
      response: { 200: Type.Object({ documents: Type.Array(LegalRecordSchema), allSigned: Type.Boolean() }), ...errorResponses(401) },
    },
  }, async (request) => legalStatus(db, principalOf(request).org.id));

  app.post("/legal/sign", {
    schema: {
      ...common,
      summary: "Record the org's acceptance of a document; signing again is harmless",
      body: SignBodySchema,
      response: { 200: LegalRecordSchema, ...errorResponses(400, 401, 415, 422) },
    },
  }, async (request) => {
    const { org, user } = principalOf(request);
    return signLegal(db, org.id, user.id, request.body.document, request.body.version);
  });
};
