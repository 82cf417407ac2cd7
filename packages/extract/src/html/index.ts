export { extractProduct } from "./extract-product.js";
