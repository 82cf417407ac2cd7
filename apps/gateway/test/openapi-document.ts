// The parts of the gateway's OpenAPI document (GET /docs/json) that the tests read, typed.

export interface JsonSchema {
  type?: string;
  format?: string;
  enum?: unknown[];
  description?: string;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  maxItems?: number;
  anyOf?: JsonSchema[];
}
export interface MediaType {
  schema: JsonSchema;
}
export interface DocumentedResponse {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaType>;
}
export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, DocumentedResponse>;
}
/** A path's operations by method (get, post...): the gateway's path items hold nothing else. */
export type PathItem = Record<string, Operation>;
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, PathItem>;
  components: { securitySchemes: Record<string, unknown> };
}
