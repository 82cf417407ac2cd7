// The four channel stand-ins as one process, for the demo: Shopify, eBay, Etsy and WooCommerce on
// consecutive ports from --port (default 3201), or each on a free port of its own with --port 0
// (the browser tests). It writes the environment that points the gateway
// and the publish worker at them to --write-env (KEY=value lines) once all are listening. (Not
// --env-file: Node 20 takes that flag for itself wherever it appears on the command line.)
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { startEbayStandin } from "./ebay-standin.js";
import { startEtsyStandin } from "./etsy-standin.js";
import { startShopifyStandin } from "./shopify-standin.js";
import { startWoocommerceStandin } from "./woocommerce-standin.js";

const { values } = parseArgs({ options: { port: { type: "string", default: "3201" }, "write-env": { type: "string" }, "public-url": { type: "string", default: "http://127.0.0.1:3000" } } });
const port = Number(values.port);
const publicUrl = values["public-url"]!.replace(/\/+$/, "");
const portAt = (offset: number) => (port === 0 ? 0 : port + offset);
const standins = [
  await startShopifyStandin({ port: portAt(0) }),
  await startEbayStandin({ port: portAt(1), callbackUrl: `${publicUrl}/api/integrations/ebay/callback` }),
  await startEtsyStandin({ port: portAt(2) }),
  await startWoocommerceStandin({ port: portAt(3) }),
];
const env = Object.assign({}, ...standins.map((s) => s.env)) as Record<string, string>;
if (values["write-env"]) await writeFile(values["write-env"], Object.entries(env).map(([k, v]) => `${k}=${v}\n`).join(""));
for (const s of standins) console.log(`${s.channel} stand-in listening on ${s.url}`);

const stop = async () => {
  await Promise.all(standins.map((s) => s.close()));
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
