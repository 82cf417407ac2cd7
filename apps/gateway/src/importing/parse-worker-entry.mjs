// A worker thread does not inherit the module loader its parent runs under (tsx), so it is
// registered here when the worker module is TypeScript source.
import { workerData } from "node:worker_threads";

if (workerData.module.endsWith(".ts")) {
  const { register } = await import("tsx/esm/api");
  register();
}
await import(workerData.module);
