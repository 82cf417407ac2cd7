import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ServiceError, legalStatus, signLegal, type Db, type LegalDocument } from "@catalog/db";
import { principalOf } from "../../plugins/auth.js";
import { errorResponses, type SameNames } from "../../schemas/common.js";
import {
  LegalDocumentParamsSchema,
  LegalDocumentQuerySchema,
  LegalRecordSchema,
  LegalStatusSchema,
  LegalTextSchema,
  SignBodySchema,
  type LEGAL_DOCUMENT_NAMES,
} from "./schemas.js";
import { legalText } from "./texts.js";

const documentsMatch: SameNames<LegalDocument, (typeof LEGAL_DOCUMENT_NAMES)[number]> = true;
void documentsMatch;

const ONLY_OWNERS = "Only an owner of the org signs its legal documents";

export const legalRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  const common = { tags: ["legal"], security: [{ session: [] }] };

  // The texts are public: anyone may read what they would agree to, signed in or not.
  app.get(
    "/legal/documents/:document",
    {
      schema: {
        tags: ["legal"],
        security: [],
        operationId: "getLegalDocument",
        summary:
          "A legal document's text (Privacy, Terms, DPA), at its current or an earlier version",
        description:
          "No sign-in needed. An unknown document, or a version without a text, is 404 naming what exists.",
        params: LegalDocumentParamsSchema,
        querystring: LegalDocumentQuerySchema,
        response: { 200: LegalTextSchema, ...errorResponses(404, 422) },
      },
    },
    async (request) => legalText(request.params.document, request.query.version),
  );

  app.get(
    "/legal/status",
    {
      onRequest: app.requireSession,
      schema: {
        ...common,
        operationId: "getLegalStatus",
        summary: "Which legal documents (Privacy, Terms, DPA) the org has signed",
        response: { 200: LegalStatusSchema, ...errorResponses(401) },
      },
    },
    async (request) => legalStatus(db, principalOf(request).org.id),
  );

  app.post(
    "/legal/sign",
    {
      onRequest: app.requireSession,
      schema: {
        ...common,
        operationId: "signLegalDocument",
        summary: "Record the org's acceptance of a document; signing again is harmless",
        description: `${ONLY_OWNERS}; a member is 403, and GET /legal/status names the org's owners.`,
        body: SignBodySchema,
        response: { 200: LegalRecordSchema, ...errorResponses(400, 401, 403, 415, 422) },
      },
    },
    async (request) => {
      const { org, user } = principalOf(request);
      if (user.role !== "owner")
        throw new ServiceError(
          403,
          `${ONLY_OWNERS.toLowerCase()}: ask an owner of ${org.name} to sign (the Legal screen names them)`,
        );
      return signLegal(db, org.id, user.id, request.body.document, request.body.version);
    },
  );
};
