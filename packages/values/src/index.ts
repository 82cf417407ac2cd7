export type { Money, ProductVariant } from "./product-values.js";
export { MAX_JSON_DEPTH, describeJsonPath, pathTooDeep } from "./json-depth.js";
export { unstorableText, type UnstorableText } from "./storable-text.js";
export { MAX_QUANTITY, availabilityFor, withStock, type StockFields } from "./stock.js";
export { MAX_TITLE_AND_SKU_BYTES, titleAndSkuTooLong } from "./searchable.js";
