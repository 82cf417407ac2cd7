import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ServiceError } from "@catalog/db";
import { errorResponses } from "../../schemas/common.js";

/** Browser-extension ingest, authenticated by API key. Extraction arrives with the import work. */
export const extensionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post("/extension/ingest", {
    onRequest: app.requireApiKey,
    schema: {
      tags: ["import"],
      summary: "Ingest a page from the browser extension (not available yet: answers 501 to a valid key)",
      security: [{ apiKey: [] }],
      response: errorResponses(401, 501),
    },
  }, async () => {
    throw new ServiceError(501, "extension ingest is not available yet in this version of the service");
  });
};
