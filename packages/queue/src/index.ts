export { producerConnection, workerConnection } from "./connections.js";
export * from "./scrape-queue.js";
