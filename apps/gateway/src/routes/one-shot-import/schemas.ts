import { Type } from "typebox";
import {
  DocumentEncodingSchema,
  DocumentPartsSchema,
  DroppedImagesSchema,
} from "../../schemas/import.js";
import { ProductSchema } from "../../schemas/product.js";
import { WatchSchedule } from "../../schemas/watch.js";

export const MAX_URLS = 50;

export const ImportUrlsBodySchema = Type.Object(
  {
    urls: Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), {
      minItems: 1,
      maxItems: MAX_URLS,
    }),
    persist: Type.Boolean({
      default: false,
      description: "true stores the products; false (the default) only previews them",
    }),
    watch: Type.Optional(
      Type.Union([WatchSchedule, Type.Null()], {
        description:
          "With persist: the stored products are watched on this schedule (source watch); ignored by a preview",
      }),
    ),
  },
  { additionalProperties: false },
);

/** POST /api/import/document's form: the upload's parts and, first, whether to store. */
export const DocumentImportPartsSchema = Type.Object({
  persist: Type.Optional(
    Type.Enum(["true", "false"], {
      description:
        '"true" stores the products; "false" (the default) only previews them. Send this part first',
    }),
  ),
  ...DocumentPartsSchema.properties,
});

const Changes = Type.Record(
  Type.String(),
  Type.Object({ from: Type.Unknown(), to: Type.Unknown() }),
);

const ImportedItem = Type.Object({
  ok: Type.Literal(true),
  action: Type.Enum(["preview", "created", "updated"]),
  wouldBe: Type.Optional(
    Type.Enum(["created", "updated"], { description: "In a preview: what persisting would do" }),
  ),
  existingId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  changes: Changes,
  product: ProductSchema,
  droppedImages: Type.Optional(DroppedImagesSchema),
});

const FailedItem = Type.Object({ ok: Type.Literal(false), error: Type.String() });

export const SummarySchema = Type.Object({
  requested: Type.Integer(),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
  created: Type.Integer({ description: "In a preview: how many would be created" }),
  updated: Type.Integer({ description: "In a preview: how many would be updated" }),
});

export const UrlImportResultSchema = Type.Object({
  persisted: Type.Boolean(),
  items: Type.Array(
    Type.Union([
      Type.Object({ url: Type.String(), ...ImportedItem.properties }),
      Type.Object({ url: Type.String(), ...FailedItem.properties }),
    ]),
  ),
  summary: SummarySchema,
});

export const DocumentImportResultSchema = Type.Object({
  persisted: Type.Boolean(),
  items: Type.Array(
    Type.Union([
      Type.Object({
        row: Type.Integer({
          description: "Row (or item) number in the document; the header is row 1",
        }),
        ...ImportedItem.properties,
      }),
      Type.Object({ row: Type.Integer(), ...FailedItem.properties }),
    ]),
  ),
  summary: SummarySchema,
  encoding: DocumentEncodingSchema,
});
