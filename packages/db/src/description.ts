// A product description has one stored form: HTML cleaned against an allow-list. Every write
// turns what it was given into that form (`storedDescription`), every read applies it again (rows
// written before this rule, or by hand, come out the same way), and channels that want plain text
// take `descriptionText` of it. Pure functions, no database: `@catalog/db/description` gives them
// to the channel adapters without the Prisma client.
import { convert } from "html-to-text";
import sanitizeHtml from "sanitize-html";

/**
 * What a stored description may hold: text structure only. No scripts, styles, forms, frames or
 * media (an <img> in a description would be loaded from any host, unscreened), no attributes but
 * a link's http(s)/mailto address and a table cell's span; everything else is removed, keeping
 * its text (a <script>'s, <style>'s and <textarea>'s contents go with it).
 */
const STORED: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "br",
    "div",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "hr",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "sub",
    "sup",
    "small",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "table",
    "caption",
    "colgroup",
    "col",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "th",
    "td",
    "a",
  ],
  allowedAttributes: {
    a: ["href"],
    th: ["colspan", "rowspan"],
    td: ["colspan", "rowspan"],
    col: ["span"],
    colgroup: ["span"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowProtocolRelative: false,
  // A description's heading sits under the product's title on every channel's page.
  transformTags: { h1: "h2" },
};

// The elements of HTML (any, allowed or not): text holding a start or end tag of one of these is
// read as HTML. Text that merely mentions "<3" or "a < b" stays text.
const HTML_ELEMENTS = [
  "a",
  "abbr",
  "address",
  "area",
  "article",
  "aside",
  "audio",
  "b",
  "base",
  "bdi",
  "bdo",
  "big",
  "blockquote",
  "body",
  "br",
  "button",
  "canvas",
  "caption",
  "center",
  "cite",
  "code",
  "col",
  "colgroup",
  "data",
  "dd",
  "del",
  "details",
  "dfn",
  "dialog",
  "div",
  "dl",
  "dt",
  "em",
  "embed",
  "fieldset",
  "figcaption",
  "figure",
  "font",
  "footer",
  "form",
  "frame",
  "frameset",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "head",
  "header",
  "hr",
  "html",
  "i",
  "iframe",
  "img",
  "input",
  "ins",
  "kbd",
  "label",
  "legend",
  "li",
  "link",
  "main",
  "map",
  "mark",
  "math",
  "meta",
  "meter",
  "nav",
  "noscript",
  "object",
  "ol",
  "optgroup",
  "option",
  "output",
  "p",
  "param",
  "picture",
  "pre",
  "progress",
  "q",
  "s",
  "samp",
  "script",
  "section",
  "select",
  "small",
  "source",
  "span",
  "strike",
  "strong",
  "style",
  "sub",
  "summary",
  "sup",
  "svg",
  "table",
  "tbody",
  "td",
  "template",
  "textarea",
  "tfoot",
  "th",
  "thead",
  "time",
  "title",
  "tr",
  "track",
  "tt",
  "u",
  "ul",
  "var",
  "video",
  "wbr",
];
const HTML_TAG = new RegExp(`<!--|</?(?:${HTML_ELEMENTS.join("|")})(?=[\\s/>])`, "i");

/** Whether `text` is HTML (holds a tag of an HTML element, or a comment) rather than plain text. */
export const isHtml = (text: string): boolean => HTML_TAG.test(text);

const escapeText = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Plain text as HTML: escaped, a blank line between paragraphs, a line break within one. */
function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .trim()
    .split(/\n[ \t]*\n\s*/)
    .map(
      (paragraph) => `<p>${escapeText(paragraph.trim()).replace(/[ \t]*\n[ \t]*/g, "<br />")}</p>`,
    )
    .join("");
}

// The tokens of simple markup: a start or end tag without attributes, a line break, text, and the
// three entities sanitize-html writes.
const TOKEN = /<(\/?)([a-z0-6]+)>|<br \/>|[^<>&\0]+|&(?:amp|lt|gt);/y;
const INLINE = new Set(["strong", "b", "em", "i", "u", "s", "sub", "sup", "small"]);
const BLOCK = new Set(["p", "h2", "h3", "h4", "h5", "h6"]);
const LIST = new Set(["ul", "ol"]);

/**
 * Whether sanitize-html would give `html` back unchanged, told without it for the common shapes
 * (what textToHtml makes, and a merchant's paragraphs, headings, lists and emphasis): top-level
 * paragraphs, headings (h2-h6) and lists of items, holding text, line breaks and the allowed
 * emphasis tags, properly nested, with no attribute, no entity but &amp; &lt; &gt;, and no space
 * at either end. Nothing here opens a tag that makes the parser close another one by itself, so
 * the parser reads it as written. Anything else is cleaned by sanitize-html (a test holds this
 * against the library). Cleaning was about a quarter of the parser thread's time on a Shopify
 * export's descriptions, and every read cleans again.
 */
export function alreadyStored(html: string): boolean {
  if (html !== html.trim()) return false;
  const open: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < html.length) {
    const token = TOKEN.exec(html);
    if (!token) return false;
    const [, end, tag] = token;
    if (tag === undefined) continue;
    const parent = open.at(-1);
    if (end) {
      if (parent !== tag) return false;
      open.pop();
      continue;
    }
    const fits = INLINE.has(tag)
      ? parent === undefined || !LIST.has(parent)
      : tag === "li"
        ? parent !== undefined && LIST.has(parent)
        : parent === undefined && (BLOCK.has(tag) || LIST.has(tag));
    if (!fits) return false;
    open.push(tag);
  }
  return open.length === 0;
}

/** HTML cleaned by sanitize-html against the allow-list, with no shortcut (see alreadyStored). */
export const sanitizeDescription = (html: string) => sanitizeHtml(html, STORED).trim();

const clean = (html: string) => (alreadyStored(html) ? html : sanitizeDescription(html));

/**
 * A description as it is stored and shown: HTML is cleaned against the allow-list; plain text
 * (no tag in it) is kept as written, escaped, with its paragraphs and line breaks. Applying it to
 * its own result changes nothing. Null when nothing is left (blank, or only a script).
 */
export function storedDescription(input: string | null | undefined): string | null {
  if (input === null || input === undefined || input.trim() === "") return null;
  const html = clean(isHtml(input) ? input : textToHtml(input));
  return html === "" ? null : html;
}

/**
 * A stored description as plain text, for channels that take text (Etsy, Amazon): paragraphs
 * and line breaks as newlines, list items on lines of their own, links as their text.
 */
export function descriptionText(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: "a", options: { ignoreHref: true } },
      ...["h2", "h3", "h4", "h5", "h6"].map((selector) => ({
        selector,
        options: { uppercase: false },
      })),
      { selector: "table", format: "dataTable", options: { uppercaseHeaderCells: false } },
    ],
  }).trim();
}

/**
 * A stored description within `max` characters, for a channel with a limit that counts the
 * markup (eBay): as it is when it fits, else its text cut to fit, as HTML again.
 */
export function clipDescriptionHtml(html: string, max: number): string {
  if (html.length <= max) return html;
  const chars = [...descriptionText(html)];
  let keep = max;
  for (;;) {
    const clipped = clean(textToHtml(chars.slice(0, keep).join("")));
    if (clipped.length <= max || keep === 0) return clipped;
    keep = Math.max(0, keep - (clipped.length - max));
  }
}
