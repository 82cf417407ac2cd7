// Runs the stand-in channel as a process of its own, for the demo and for benchmarks or tests
// that drive it from elsewhere (faults over /_control). Prints one line with its URL, so a parent
// process can read where it listens when started with --port 0.
//   tsx packages/channels/src/standins/generic/standin-main.ts [--host 127.0.0.1] [--port 4100] [--rate 20]
// --rate declares the requests each store takes per second (over it: 429 with Retry-After).
import { parseArgs } from "node:util";
import { parseRate } from "../kit/rate-gate.js";
import { startStandinChannel } from "./standin-server.js";

const { values } = parseArgs({
  options: { host: { type: "string" }, port: { type: "string" }, rate: { type: "string" } },
});
const port = Number(values.port ?? process.env.STANDIN_PORT ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`invalid port: ${values.port ?? process.env.STANDIN_PORT}`);
  process.exit(2);
}

const rateText = values.rate ?? process.env.STANDIN_RATE;
const rate = rateText === undefined ? undefined : parseRate(Number(rateText));
if (typeof rate === "string") {
  console.error(`invalid --rate ${rateText}: ${rate}`);
  process.exit(2);
}

const channel = await startStandinChannel({
  rate: rate ?? undefined,
  host: values.host ?? process.env.STANDIN_HOST ?? "127.0.0.1",
  port,
});
console.log(`stand-in channel listening on ${channel.url}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void channel.close().then(() => process.exit(0)));
}
