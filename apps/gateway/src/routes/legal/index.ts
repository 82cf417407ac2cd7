import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { legalStatus, signLegal, type Db, type LegalDocument } from "@catalog/db";
import { principalOf } from "../../plugins/auth.js";
import { errorResponses, type SameNames } from "../../schemas/common.js";
import {
  LegalRecordSchema,
  LegalStatusSchema,
  SignBodySchema,
  type LEGAL_DOCUMENT_NAMES,
} from "./schemas.js";

const documentsMatch: SameNames<LegalDocument, (typeof LEGAL_DOCUMENT_NAMES)[number]> = true;
void documentsMatch;

export const legalRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook("onRequest", app.requireSession);
  const common = { tags: ["legal"], security: [{ session: [] }] };

  app.get(
    "/legal/status",
    {
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
      schema: {
        ...common,
        operationId: "signLegalDocument",
        summary: "Record the org's acceptance of a document; signing again is harmless",
        body: SignBodySchema,
        response: { 200: LegalRecordSchema, ...errorResponses(400, 401, 415, 422) },
      },
    },
    async (request) => {
      const { org, user } = principalOf(request);
      return signLegal(db, org.id, user.id, request.body.document, request.body.version);
    },
  );
};
