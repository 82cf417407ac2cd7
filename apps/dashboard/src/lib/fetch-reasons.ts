// Why a web page could not be read, in a merchant's words. The import's fetch layer says it for
// developers ("shop.invalid could not be found (DNS lookup failed: ENOTFOUND); check the
// address"); its text stays available behind a details toggle.

export interface PlainReason {
  /** A short heading: "Address not found". */
  title: string;
  /** What happened and what to do, in a sentence. */
  advice: string;
}

// The first that fits: the page's own address is part of the message, so the rules for what the
// worker found come before the words an address could contain.
const RULES: [RegExp, PlainReason][] = [
  [
    /no product|not a product|could not find a product/i,
    {
      title: "No product on this page",
      advice: "The page was read but shows no product. Use the address of one product's page.",
    },
  ],
  [
    /could not be found \((DNS|no DNS)|ENOTFOUND|EAI_AGAIN|no DNS records/i,
    {
      title: "Address not found",
      advice: "No site answers to this name. Check the address for a typo.",
    },
  ],
  [
    /refused the connection|ECONNREFUSED/i,
    {
      title: "The site refused the connection",
      advice: "The site may be down. Try again later.",
    },
  ],
  [
    /did not respond in time|no answer within|timed out|ETIMEDOUT/i,
    {
      title: "The site took too long to answer",
      advice: "It may be busy or down. Try again later.",
    },
  ],
  [
    /closed the connection|ECONNRESET|socket hang up/i,
    {
      title: "The site cut the connection",
      advice: "Try again later.",
    },
  ],
  [
    /could not be reached|EHOSTUNREACH|ENETUNREACH/i,
    {
      title: "The site could not be reached",
      advice: "Check the address, or try again later.",
    },
  ],
  [
    /certificate/i,
    {
      title: "The site's security certificate is not valid",
      advice: "The page was not read, to keep the connection safe.",
    },
  ],
  [
    /was not found \((404|410)/i,
    {
      title: "Page not found",
      advice: "The site has no page at this address. Check the address.",
    },
  ],
  [
    /refused access/i,
    {
      title: "The site refused access",
      advice: "It may block automated visits. Try the browser extension on that page instead.",
    },
  ],
  [
    /limiting requests/i,
    {
      title: "The site asked to slow down",
      advice: "Try again in a few minutes.",
    },
  ],
  [
    /had a server error/i,
    {
      title: "The site had a problem",
      advice: "Its server answered with an error. Try again later.",
    },
  ],
  [
    /loopback/i,
    {
      title: "Not a public address",
      advice: "It points to this computer, not a public site. Only public web pages can be read.",
    },
  ],
  [
    /private|link-local|unique-local|site-local|carrier-grade|non-global/i,
    {
      title: "Not a public address",
      advice: "It points to a private network. Only public web pages can be read.",
    },
  ],
  [
    /unspecified|multicast|broadcast|reserved|non-public|Teredo|NAT64/i,
    {
      title: "Not a public address",
      advice: "It is not the address of a web site. Only public web pages can be read.",
    },
  ],
  [
    /user name or password/i,
    {
      title: "Address with a password",
      advice: "Remove the user name and password from the address.",
    },
  ],
  [
    /not an http\(s\) address|only http/i,
    {
      title: "Not a web page address",
      advice: "Only addresses starting with http:// or https:// can be read.",
    },
  ],
  [
    /not a valid web address/i,
    {
      title: "Not a web address",
      advice: "Check the address.",
    },
  ],
];

/** The plain reason for a fetch layer's message; null when none of the known ones fits. */
export function plainFetchReason(message: string): PlainReason | null {
  for (const [pattern, reason] of RULES) if (pattern.test(message)) return reason;
  return null;
}

/**
 * The refused addresses a 422 of the URL import names ("urls[1]: … is a multicast address; only
 * public web addresses can be imported; urls[3]: …"), by their index in the list sent.
 */
export function refusedUrls(message: string): { index: number; reason: string }[] {
  return message
    .split(/;\s*(?=urls\[\d+\]:)/i)
    .map((part) => /^urls\[(\d+)\]:\s*([\s\S]*)$/i.exec(part.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ index: Number(m[1]), reason: m[2]!.trim() }));
}
