import { readFile } from "node:fs/promises";
import {
  buildSchema,
  getVariableValues,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";

export interface GraphqlContract {
  schema: GraphQLSchema;
  /**
   * The problems of one request against the schema, empty when it validates: the document, and
   * when `variables` are given, each of them coerced to its declared input type (unknown fields,
   * wrong enum values, missing required fields), as the server would before running it.
   */
  check(document: string, variables?: Record<string, unknown>): string[];
}

// assumeValid: the published schema trips graphql-js's own schema checks (deprecation of
// interface fields), which say nothing about our documents.
/**
 * Builds the schema once (Shopify's SDL is ~3.7 MB: about a second), then checks requests in
 * microseconds.
 */
export async function loadGraphqlContract(file: string): Promise<GraphqlContract> {
  const schema = buildSchema(await readFile(file, "utf8"), {
    assumeValidSDL: true,
    assumeValid: true,
  });
  return {
    schema,
    check(document, variables) {
      let parsed: DocumentNode;
      try {
        parsed = parse(document);
      } catch (error) {
        return [`unparsable document: ${(error as Error).message}`];
      }
      const problems = validate(schema, parsed).map((e) => e.message);
      if (problems.length > 0 || variables === undefined) return problems;
      const operation = parsed.definitions.find(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
      );
      const coerced = getVariableValues(schema, operation?.variableDefinitions ?? [], variables, {
        maxErrors: 20,
      });
      return "errors" in coerced ? (coerced.errors ?? []).map((e) => e.message) : [];
    },
  };
}
