import ipaddr from "ipaddr.js";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** What `allowTarget` is shown: the name from the URL, its port and one address it resolved to. */
export interface TargetAddress {
  hostname: string;
  port: number;
  address: string;
}

export interface UrlPolicy {
  /** Local ingest (configuration): private, loopback and link-local targets are let through. */
  allowPrivate: boolean;
  /**
   * Replaces the system resolver (dns.lookup with all: true). Must return every address of the
   * name: the check refuses the name if any one of them is non-public.
   */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /**
   * Consulted only for a target that would otherwise be refused; true lets that one target
   * through. Exists so tests can play a "public" site on loopback without opening loopback to
   * everything else; production configuration leaves it unset.
   */
  allowTarget?: (target: TargetAddress) => boolean;
}

export type AddressVerdict =
  | { public: true }
  // `usable: false` marks addresses that are never a web server (unspecified, multicast,
  // broadcast), refused even with allowPrivate.
  | { public: false; reason: string; usable: boolean };

const PUBLIC: AddressVerdict = { public: true };

// Adjectives for refusal messages ("… is a loopback address").
const RANGE_WORDS: Record<string, string> = {
  loopback: "loopback",
  private: "private",
  linkLocal: "link-local",
  carrierGradeNat: "carrier-grade NAT (shared)",
  reserved: "reserved or documentation",
  uniqueLocal: "private (unique-local)",
  deprecatedSiteLocal: "private (site-local)",
  teredo: "Teredo tunnel",
  rfc6052: "local-use NAT64",
  unspecified: "unspecified",
  multicast: "multicast",
  broadcast: "broadcast",
  nonGlobal: "non-global IPv6",
};
const UNUSABLE = new Set(["unspecified", "multicast", "broadcast"]);
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

function refuse(range: string, form?: string): AddressVerdict {
  const words = [form, RANGE_WORDS[range] ?? "non-public"].filter(Boolean).join(" ");
  const article = /^[aeiou]/i.test(words) ? "an" : "a";
  return { public: false, reason: `${article} ${words} address`, usable: !UNUSABLE.has(range) };
}

function v4Verdict(addr: ipaddr.IPv4, form?: string): AddressVerdict {
  // Only what ipaddr.js calls plain unicast is public; every special range (including
  // AS112/AMT anycast, 240/4 and the documentation nets) is refused.
  const range = addr.range();
  return range === "unicast" ? PUBLIC : refuse(range, form);
}

function v4From(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

function v6Verdict(addr: ipaddr.IPv6): AddressVerdict {
  const range = addr.range();
  const p = addr.parts;
  // Forms that carry an IPv4 address are judged by that address: the packet ends up there.
  if (range === "ipv4Mapped") return v4Verdict(addr.toIPv4Address(), "IPv4-mapped");
  if (range === "rfc6145") return v4Verdict(v4From(p[6] ?? 0, p[7] ?? 0), "IPv4-translated");
  if (range === "6to4") return v4Verdict(v4From(p[1] ?? 0, p[2] ?? 0), "6to4");
  // Only the well-known NAT64 prefix maps to a global IPv4; the local-use 64:ff9b:1::/48 is
  // network-specific, so it stays refused below.
  if (addr.match(NAT64_WELL_KNOWN)) return v4Verdict(v4From(p[6] ?? 0, p[7] ?? 0), "NAT64");
  // Teredo hides the client's IPv4 (XORed) behind a relay; no real shop is served that way,
  // so it is refused outright rather than decoded.
  if (range !== "unicast") return refuse(range);
  // Anything outside 2000::/3 is unassigned or special (incl. deprecated IPv4-compatible
  // ::a.b.c.d).
  if (!addr.match(GLOBAL_UNICAST_V6)) return refuse("nonGlobal");
  return PUBLIC;
}

/** Classifies one literal address; anything it cannot parse as a canonical address is refused. */
export function classifyAddress(ip: string): AddressVerdict {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return v4Verdict(ipaddr.IPv4.parse(bare));
  // ipaddr's IPv4 parser also takes octal/hex/short forms; callers only ever pass canonical
  // text (from WHATWG URL or the resolver), so those forms are refused rather than guessed at.
  if (ipaddr.IPv6.isValid(bare)) return v6Verdict(ipaddr.IPv6.parse(bare));
  return { public: false, reason: "not an IP address", usable: false };
}

export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip).public;
}

/** Why `address` may not be used under `policy`, or undefined when it may. */
export function addressRefusal(target: TargetAddress, policy: UrlPolicy): string | undefined {
  const verdict = classifyAddress(target.address);
  if (verdict.public) return undefined;
  if (policy.allowTarget?.(target)) return undefined;
  if (policy.allowPrivate && verdict.usable) return undefined;
  return verdict.reason;
}
