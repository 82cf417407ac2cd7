// Every channel's stand-in (CHANNEL_STANDINS) as one process, for the demo and the browser tests:
// on consecutive ports from --port (default 3201), or each on a free port of its own with --port 0.
// It writes the environment that points the gateway and the publish worker at them to
// --write-env (KEY=value lines) once all are listening, then prints one line per stand-in, a
// "channel stand-ins ready" line, and what to type in the connect forms. (Not --env-file:
// Node takes that flag for itself wherever it appears on the command line, even after the script.)
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { CHANNEL_STANDINS } from "./channel-standins.js";
import { parseRate } from "./kit/rate-gate.js";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "3201" },
    "write-env": { type: "string" },
    "public-url": { type: "string", default: "http://127.0.0.1:3000" },
    /** Requests each store takes per second (over it: the channel's 429 with Retry-After). */
    rate: { type: "string" },
  },
});
const rate = values.rate === undefined ? null : parseRate(Number(values.rate));
if (typeof rate === "string") {
  console.error(`invalid --rate ${values.rate}: ${rate}`);
  process.exit(2);
}
const port = Number(values.port);
const publicUrl = values["public-url"].replace(/\/+$/, "");
const standins = await Promise.all(
  CHANNEL_STANDINS.map((entry, i) =>
    entry.start({
      port: port === 0 ? 0 : port + i,
      callbackUrl: `${publicUrl}/api/integrations/${entry.channel}/callback`,
      ...(rate === null ? {} : { rate }),
    }),
  ),
);
const env = Object.assign({}, ...standins.map((s) => s.env)) as Record<string, string>;
if (values["write-env"])
  await writeFile(
    values["write-env"],
    Object.entries(env)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(""),
  );
for (const s of standins) console.log(`${s.channel} stand-in listening on ${s.url}`);
console.log("channel stand-ins ready");
// What a person types in each connect form to reach a store on the stand-ins (after the lines
// above, which the browser tests read).
for (const [i, s] of standins.entries()) {
  const hint = CHANNEL_STANDINS[i]!.connectHint?.(s.url);
  if (hint) console.log(`  to connect ${s.channel}, enter ${hint}`);
}

const stop = async () => {
  await Promise.all(standins.map((s) => s.close()));
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
