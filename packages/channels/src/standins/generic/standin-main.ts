// Runs the stand-in channel as a process of its own, for the demo and for benchmarks or tests
// that drive it from elsewhere (faults over /_control). Prints one line with its URL, so a parent
// process can read where it listens when started with --port 0.
//   tsx packages/channels/src/standins/generic/standin-main.ts [--host 127.0.0.1] [--port 4100]
//     [--rate 20]   (each store's declared rate, requests a second; also STANDIN_RATE)
import { parseArgs } from "node:util";
import { startStandinChannel } from "./standin-server.js";

const { values } = parseArgs({
  options: { host: { type: "string" }, port: { type: "string" }, rate: { type: "string" } },
});
const rate = Number(values.rate ?? process.env.STANDIN_RATE ?? 0);
if (!Number.isFinite(rate) || rate < 0) {
  console.error(`invalid rate: ${values.rate ?? process.env.STANDIN_RATE}`);
  process.exit(2);
}
const port = Number(values.port ?? process.env.STANDIN_PORT ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`invalid port: ${values.port ?? process.env.STANDIN_PORT}`);
  process.exit(2);
}

const channel = await startStandinChannel({
  host: values.host ?? process.env.STANDIN_HOST ?? "127.0.0.1",
  port,
  ...(rate > 0 ? { ratePerSecond: rate } : {}),
});
console.log(`stand-in channel listening on ${channel.url}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void channel.close().then(() => process.exit(0)));
}
