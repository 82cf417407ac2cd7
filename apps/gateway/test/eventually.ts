export { eventually } from "@catalog/testing";
