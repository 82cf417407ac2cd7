import type { CheerioAPI } from "./dom.js";
import { boundedText } from "./dom.js";
import { tagged } from "./page-index.js";

/**
 * Pages a shop's bot protection shows instead of the shop while it checks the visitor (a
 * captcha, a JavaScript challenge, a block page). Read from the page itself, so the extension
 * can ask the user to pass the check and try again rather than import the check as a product.
 *
 * Strong signs (a challenge vendor's own markup or title) need a page with little else on it;
 * weak ones (a captcha widget, which shops also put on newsletter forms) need a page that also
 * asks the visitor to prove they are human, and has hardly any other text.
 */
const VENDOR_TITLES: [RegExp, string][] = [
  [/^just a moment\.*$/i, "Cloudflare's check"],
  [/attention required!? \| cloudflare/i, "Cloudflare's check"],
  [/^robot check$/i, "Amazon's robot check"],
  [/^(pardon our interruption|access to this page has been denied)/i, "the shop's bot protection"],
];

const VENDOR_MARKUP: [RegExp, string][] = [
  // Not "challenge-platform": Cloudflare adds that script to ordinary pages too.
  [
    /\b(cf-chl-|_cf_chl_opt|cf-challenge|id="challenge-(?:stage|form|running|error-text)")/i,
    "Cloudflare's check",
  ],
  [/\bpx-captcha\b|perimeterx/i, "a PerimeterX check"],
  [/captcha-delivery\.com|\bdatadome\b/i, "a DataDome check"],
  [/enter the characters you see below|\/errors\/validatecaptcha/i, "Amazon's robot check"],
  [/\bincapsula incident id\b|_incapsula_resource/i, "an Imperva check"],
];

const CAPTCHA_WIDGET =
  /\b(g-recaptcha|h-captcha|cf-turnstile|recaptcha\/api\.js|hcaptcha\.com\/1\/api\.js|challenges\.cloudflare\.com\/turnstile)\b/i;
const HUMAN_PHRASES =
  /(verify (that )?you are (a )?human|are you a (robot|human)|not a robot|prove you('| a)re human|unusual traffic|security check|complete the (security )?check|checking your browser|confirm you are human)/i;
const AKAMAI_BLOCK = { title: /^access denied$/i, body: /reference\s*#\s*[\d.a-f]+/i };

/** A challenge page carries a few sentences; a shop's page carries far more. */
const SPARSE_TEXT = 2000;

export interface RobotCheck {
  /** Who checks, as a person would name it: "Cloudflare's check", "a captcha". */
  by: string;
}

export function detectRobotCheck($: CheerioAPI, html: string): RobotCheck | null {
  const title =
    tagged($, "title")
      .map((el) => $(el).text().trim())
      .find((t) => t !== "") ?? "";
  const body = tagged($, "body")[0];
  const text = body ? boundedText(body, SPARSE_TEXT) : "";
  // Past the bound boundedText gives up: a page with that much to say is not a challenge page.
  if (text === null) return null;

  for (const [pattern, by] of VENDOR_TITLES) if (pattern.test(title)) return { by };
  if (AKAMAI_BLOCK.title.test(title) && AKAMAI_BLOCK.body.test(text))
    return { by: "the shop's bot protection (Akamai)" };
  for (const [pattern, by] of VENDOR_MARKUP) if (pattern.test(html)) return { by };
  if (CAPTCHA_WIDGET.test(html) && (HUMAN_PHRASES.test(text) || HUMAN_PHRASES.test(title)))
    return { by: "a captcha" };
  return null;
}
