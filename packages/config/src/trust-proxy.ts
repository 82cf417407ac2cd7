import { isIP } from "node:net";
import { ConfigError } from "./env.js";

/** Which peers' X-Forwarded-For, -Proto and -Host the gateway believes (Fastify's `trustProxy`). */
export type TrustProxy = boolean | string[];

/** proxy-addr's names for address ranges, which Fastify accepts beside addresses and CIDRs. */
const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = "", bits, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return (
    bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128))
  );
}

/**
 * TRUST_PROXY: `false` (the default: the peer is the client), or the addresses and CIDR ranges
 * of the proxies in front of the gateway, comma-separated (`uniquelocal`, `loopback` and
 * `linklocal` name those ranges). The client is then the last address in X-Forwarded-For that is
 * not one of them, so a client cannot choose its address by writing the header itself. `true`
 * believes the header's first address, which any client can write; a number of hops is not
 * offered: Fastify refuses it, since it cannot tell a proxy from a client that reached the
 * gateway directly.
 */
export function parseTrustProxy(text: string): TrustProxy {
  const value = text.trim();
  if (value === "false") return false;
  if (value === "true") return true;
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (entries.length > 0 && entries.every(isAddressOrRange)) return entries;
  throw new ConfigError(
    `Invalid configuration: TRUST_PROXY "${text}" must be false, or the addresses or CIDR ranges of the proxies in front of the gateway, ` +
      "comma-separated (uniquelocal, loopback and linklocal name those ranges)",
  );
}
