import { readFile } from "node:fs/promises";
import { buildSchema, parse, validate, type GraphQLSchema } from "graphql";

export interface GraphqlContract {
  schema: GraphQLSchema;
  /** The problems of one document against the schema; empty when it validates. */
  check(document: string): string[];
}

// assumeValid: the published schema trips graphql-js's own schema checks (deprecation of
// interface fields), which say nothing about our documents.
/** Builds the schema once (Shopify's SDL is ~3.7 MB: about a second), then checks documents in microseconds. */
export async function loadGraphqlContract(file: string): Promise<GraphqlContract> {
  const schema = buildSchema(await readFile(file, "utf8"), { assumeValidSDL: true, assumeValid: true });
  return {
    schema,
    check(document) {
      try {
        return validate(schema, parse(document)).map((e) => e.message);
      } catch (error) {
        return [`unparsable document: ${(error as Error).message}`];
      }
    },
  };
}
