export { parsePrice, type ParsedPrice, type PriceHint } from "./parse-price.js";
export { currencyForRegion } from "./region-currency.js";
