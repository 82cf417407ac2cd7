// The forms a merchant fills in for a channel (connect, destination settings), drawn from the
// channel's TypeBox schemas so the form, the OpenAPI text and the 422 messages cannot drift.
import type { TObject, TSchema } from "typebox";

/** A field a merchant fills in: a query parameter of the connect request or a settings key. */
export interface ChannelField {
  name: string;
  label: string;
  required: boolean;
  description: string;
  placeholder: string | null;
  /**
   * A regular expression (JSON Schema `pattern`) a value must match: the form checks its shape
   * before sending it.
   */
  pattern: string | null;
  /**
   * Where its values can be chosen from (GET /api/destinations/settings-options): "list", every
   * choice at once (a seller's policies, the marketplaces); "search", suggestions for typed
   * words (eBay's categories); null, typed in.
   */
  choices: FieldChoices | null;
}

export type FieldChoices = "list" | "search";

interface Annotated {
  title?: string;
  description?: string;
  examples?: unknown[];
  pattern?: string;
  choices?: FieldChoices;
}

/**
 * One field per property of `schema`, in its order; `title` is the label, `examples[0]` the
 * placeholder, `choices` (a keyword of ours) where its values come from.
 */
export function fieldsOf(schema: TObject): ChannelField[] {
  const required = new Set<string>((schema as { required?: string[] }).required ?? []);
  return Object.entries(schema.properties as Record<string, TSchema>).map(([name, property]) => {
    const { title, description, examples, pattern, choices } = property as Annotated;
    return {
      name,
      label: title ?? name,
      required: required.has(name),
      description: description ?? "",
      placeholder: examples && examples.length > 0 ? String(examples[0]) : null,
      pattern: pattern ?? null,
      choices: choices ?? null,
    };
  });
}
