import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type, type Static } from "typebox";
import {
  deleteImportMapping,
  listImportMappings,
  saveImportMapping,
  type Db,
  type ImportMappingView,
} from "@catalog/db";
import type { MappedField } from "@catalog/extract/upload-checks";
import { actingOf } from "../../plugins/auth.js";
import { errorResponses, type SameNames } from "../../schemas/common.js";
import {
  ImportMappingListSchema,
  ImportMappingParamsSchema,
  ImportMappingSchema,
  SaveImportMappingBodySchema,
  type MAPPED_FIELD_NAMES,
} from "./schemas.js";

const fieldsMatch: SameNames<MappedField, (typeof MAPPED_FIELD_NAMES)[number]> = true;
void fieldsMatch;

/** Saved mappings were checked against MAPPED_FIELDS by the body schema when they were saved. */
const viewOf = (view: ImportMappingView) => view as Static<typeof ImportMappingSchema>;

export interface ImportMappingRoutesOptions {
  db: Db;
}

// The org's saved column mappings (issue 31): an upload whose header set is a template's is read
// with it unless the upload brings a mapping or says "automatic". Any signed-in member.
export const importMappingRoutes: FastifyPluginAsyncTypebox<ImportMappingRoutesOptions> = async (
  app,
  { db },
) => {
  app.addHook("onRequest", app.requireSession);
  const common = { tags: ["import"], security: [{ session: [] }] };

  app.get(
    "/import-mappings",
    {
      schema: {
        ...common,
        operationId: "listImportMappings",
        summary: "The organisation's saved column mappings (templates), by name",
        response: { 200: ImportMappingListSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({
      items: (await listImportMappings(db, actingOf(request).orgId)).map(viewOf),
    }),
  );

  app.post(
    "/import-mappings",
    {
      schema: {
        ...common,
        operationId: "saveImportMapping",
        summary: "Save a column mapping as a template for files with these headers",
        description:
          "A later upload (POST /api/imports, POST /api/import/document, POST /api/imports/columns) whose header set is `headers` " +
          "(compared trimmed and in any case, in any order) is read with `mapping` unless it sends a mapping of its own or " +
          '"automatic". A template for the same header set already saved in the organisation is replaced (200); else 201. ' +
          "A mapping naming a column not in `headers` is a 422.",
        body: SaveImportMappingBodySchema,
        response: {
          200: ImportMappingSchema,
          201: ImportMappingSchema,
          ...errorResponses(400, 401, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const { orgId, userId } = actingOf(request);
      const { view, replaced } = await saveImportMapping(db, orgId, {
        ...request.body,
        createdBy: userId,
      });
      return reply.code(replaced ? 200 : 201).send(viewOf(view));
    },
  );

  app.delete(
    "/import-mappings/:id",
    {
      schema: {
        ...common,
        operationId: "deleteImportMapping",
        summary: "Delete a saved column mapping",
        description: "Imports read with it keep saying so. Another organisation's template is 404.",
        params: ImportMappingParamsSchema,
        response: { 204: Type.Null(), ...errorResponses(401, 404, 429) },
      },
    },
    async (request, reply) => {
      await deleteImportMapping(db, actingOf(request).orgId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
