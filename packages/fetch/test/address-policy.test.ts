import { classifyAddress, isPublicAddress } from "../src/index.js";

describe("isPublicAddress", () => {
  it.each([
    "8.8.8.8",
    "93.184.216.34",
    "2606:4700:4700::1111",
    "2a00:1450:4001:82b::200e",
    "::ffff:8.8.8.8", // mapped public v4
    "64:ff9b::808:808", // well-known NAT64 of 8.8.8.8
    "2002:808:808::1", // 6to4 of 8.8.8.8
  ])("accepts %s", (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.10", "reserved"],
    ["198.18.0.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fd00::1", "unique-local"],
    ["fc00::1", "unique-local"],
    ["fe80::1", "link-local"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::ffff:169.254.169.254", "IPv4-mapped link-local"],
    ["::ffff:0:a00:1", "IPv4-translated private"],
    ["64:ff9b::7f00:1", "NAT64 loopback"],
    ["64:ff9b::a00:1", "NAT64 private"],
    ["64:ff9b:1::808:808", "local-use NAT64"],
    ["2002:7f00:1::1", "6to4 loopback"],
    ["2002:c0a8:101::1", "6to4 private"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
    ["2001:db8::1", "reserved"],
    ["::7f00:1", "non-global IPv6"], // deprecated IPv4-compatible form
    // ipaddr.js reads dotted IPv4-compatible text as mapped; refused either way (and WHATWG
    // URL already rewrites [::127.0.0.1] to [::7f00:1]).
    ["::127.0.0.1", "loopback"],
    ["100::1", "non-public"], // discard-only
    ["localhost", "not an IP"],
    ["0x7f.1", "not an IP"], // never guessed at: callers pass canonical text
    ["017700000001", "not an IP"],
  ])("refuses %s (%s)", (ip, why) => {
    const verdict = classifyAddress(ip);
    expect(verdict.public).toBe(false);
    expect(verdict.public ? "" : verdict.reason).toContain(why);
  });

  it("accepts bracketed IPv6 as URL.hostname gives it", () => {
    expect(isPublicAddress("[2606:4700:4700::1111]")).toBe(true);
    expect(isPublicAddress("[::1]")).toBe(false);
  });
});
