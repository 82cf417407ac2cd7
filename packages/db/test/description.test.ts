// A description's one stored form: HTML cleaned against an allow-list, plain text kept as the
// merchant wrote it (escaped, paragraphs and line breaks kept), the same value when applied again.
import fc from "fast-check";
import sanitizeHtml from "sanitize-html";
import {
  alreadyStored,
  clipDescriptionHtml,
  descriptionText,
  isHtml,
  sanitizeDescription,
  storedDescription,
} from "../src/description.js";

const HOSTILE =
  `<p onclick="steal()">Soft <b>linen</b> shirt.</p><script>alert(1)</script><img src=x onerror=alert(2)>` +
  `<a href="javascript:alert(3)">click</a> <a href="https://shop.example/care?a=1&b=2" onmouseover="x()">Care</a>` +
  `<iframe src="https://evil.example/"></iframe><style>body{display:none}</style><form action="/x"><input name=q></form>`;

test("HTML keeps its structure and loses scripts, event handlers, javascript: links, frames, styles and forms", () => {
  expect(storedDescription(HOSTILE)).toBe(
    `<p>Soft <b>linen</b> shirt.</p><a>click</a> <a href="https://shop.example/care?a=1&amp;b=2">Care</a>`,
  );
  expect(
    storedDescription(
      `<h1>Fit</h1><ul><li>Relaxed</li></ul><table><tr><td colspan="2" style="color:red">Size</td></tr></table>`,
    ),
  ).toBe(`<h2>Fit</h2><ul><li>Relaxed</li></ul><table><tr><td colspan="2">Size</td></tr></table>`);
});

test("plain text stays the merchant's text: escaped, paragraphs and line breaks kept", () => {
  expect(
    storedDescription(
      "Stoneware, holds 350 ml.\r\nDishwasher safe.\n\n  Fish & Chips <3, 5 < 6 > 4  ",
    ),
  ).toBe(
    "<p>Stoneware, holds 350 ml.<br />Dishwasher safe.</p><p>Fish &amp; Chips &lt;3, 5 &lt; 6 &gt; 4</p>",
  );
  // An HTML tag makes it HTML; a lone "<" or an unknown word in brackets does not.
  expect(isHtml("Use <b>bold</b>")).toBe(true);
  expect(isHtml("<!-- note -->")).toBe(true);
  expect(isHtml("a <thing> and x<y")).toBe(false);
});

test("nothing left (blank, only a script) is no description", () => {
  expect(storedDescription(null)).toBeNull();
  expect(storedDescription("  \n ")).toBeNull();
  expect(storedDescription("<script>alert(1)</script><style>p{}</style>")).toBeNull();
});

test("the stored form is a fixed point: applying it again (at every read) changes nothing", () => {
  const inputs = [
    HOSTILE,
    "Stoneware.\nDishwasher safe.\n\nSecond",
    "Fish & Chips <3 \"quoted\" 'single' ü ☕ \u00a0nbsp",
    "<p>a<br>b</p>\n<p>c</p>",
    "<p>unclosed <b>bold",
    "Tom &amp; Jerry &eacute;",
    "<div><p>x</p></div><hr>",
    "tab\there\n\n\n\nmany blank lines",
    "<P CLASS=x>Upper</P>",
    "<p></p><p>after an empty one</p>",
  ];
  for (const input of inputs) {
    const stored = storedDescription(input);
    expect(storedDescription(stored)).toBe(stored);
  }
});

test("plain text's stored form skips the HTML parser only where the parser would give it back unchanged", () => {
  for (const text of [
    "Fish & Chips <3 \"quoted\" 'single' ü ☕ \u00a0nbsp &amp; already",
    "one\ntwo\n\nthree\ttab",
    "5 > 4 && 3 < 4",
  ]) {
    const stored = storedDescription(text)!;
    expect(stored).toMatch(/^<p>/);
    expect(sanitizeHtml(stored, { allowedTags: ["p", "br"], allowedAttributes: {} })).toBe(stored);
  }
});

// Pieces of descriptions: text sanitize-html keeps as it is, and text it rewrites.
const KEPT_TEXT = [
  "Soft linen",
  " ",
  "\n",
  "\r\n",
  "Fish &amp; Chips",
  "5 &lt; 6 &gt; 4",
  "ü ☕",
  "\u00a0",
  '"q"',
];
const REWRITTEN_TEXT = ["&", "&quot;", "&nbsp;", "&eacute;", "<", ">", "\u0000", "a<3", "x & y"];
const EMPHASIS = ["strong", "b", "em", "i", "u", "s", "sub", "sup", "small"];
const ANY_TAG = [
  ...EMPHASIS,
  "p",
  "h1",
  "h2",
  "h6",
  "ul",
  "ol",
  "li",
  "a",
  "div",
  "span",
  "table",
  "tr",
  "td",
  "P",
  "dl",
  "dd",
  "blockquote",
  "script",
];

// Any markup, mostly well-formed, sometimes broken: an attribute, a tag left open or closed twice.
const { markup } = fc.letrec((tie) => ({
  markup: fc
    .array(
      fc.oneof(
        { maxDepth: 4, depthIdentifier: "markup" },
        fc.constantFrom(...KEPT_TEXT, ...REWRITTEN_TEXT),
        fc.constantFrom("<br />", "<br>", "<br/>", "<hr />"),
        tie("element") as fc.Arbitrary<string>,
      ),
      { minLength: 1, maxLength: 3, depthIdentifier: "markup" },
    )
    .map((parts) => parts.join("")),
  element: fc
    .record({
      tag: fc.constantFrom(...ANY_TAG),
      attribute: fc.constantFrom("", "", "", ' class="x"'),
      end: fc.constantFrom("close", "close", "close", "none", "twice"),
      inner: tie("markup") as fc.Arbitrary<string>,
    })
    .map(({ tag, attribute, end, inner }) => {
      const close = end === "none" ? "" : end === "twice" ? `</${tag}></${tag}>` : `</${tag}>`;
      return `<${tag}${attribute}>${inner}${close}`;
    }),
}));

// The shapes alreadyStored takes: paragraphs, headings and lists of emphasis and kept text.
const { inline } = fc.letrec((tie) => ({
  inline: fc
    .array(
      fc.oneof(
        { maxDepth: 3, depthIdentifier: "inline" },
        fc.constantFrom(...KEPT_TEXT),
        fc.constant("<br />"),
        tie("emphasis") as fc.Arbitrary<string>,
      ),
      { minLength: 1, maxLength: 3, depthIdentifier: "inline" },
    )
    .map((parts) => parts.join("")),
  emphasis: fc
    .tuple(fc.constantFrom(...EMPHASIS), tie("inline") as fc.Arbitrary<string>)
    .map(([tag, inner]) => `<${tag}>${inner}</${tag}>`),
}));
const block = fc.oneof(
  inline.map((text) => `<p>${text}</p>`),
  fc.tuple(fc.integer({ min: 2, max: 6 }), inline).map(([n, text]) => `<h${n}>${text}</h${n}>`),
  fc
    .tuple(fc.constantFrom("ul", "ol"), fc.array(inline, { minLength: 1, maxLength: 3 }))
    .map(
      ([list, items]) => `<${list}>${items.map((text) => `<li>${text}</li>`).join("\n")}</${list}>`,
    ),
);
const shaped = fc
  .tuple(fc.array(block, { minLength: 1, maxLength: 3 }), fc.constantFrom("", "\n"))
  .map(([blocks, between]) => blocks.join(between));

test("markup is taken as already stored only where sanitize-html gives it back unchanged", () => {
  let taken = 0;
  fc.assert(
    fc.property(fc.oneof(markup, shaped), (html) => {
      if (!alreadyStored(html)) return;
      taken++;
      expect(sanitizeDescription(html)).toBe(html);
    }),
    { numRuns: 20_000, seed: 20_261_129 },
  );
  // Not a test that passes by taking nothing.
  expect(taken).toBeGreaterThan(5_000);
  expect(alreadyStored("<p>Soft <b>linen</b></p><ul><li>Material: cotton</li></ul>")).toBe(true);
  for (const refused of [
    "<p><p>x</p></p>",
    "<p>x<ul><li>y</li></ul></p>",
    "<li>x</li>",
    "<p>a</b>",
    " <p>x</p>",
    "<ul><b>x</b></ul>",
    "<p>&quot;</p>",
    "<h1>x</h1>",
  ])
    expect(alreadyStored(refused)).toBe(false);
});

test("as plain text (Etsy, Amazon): paragraphs, line breaks and list items on lines, links as their text", () => {
  expect(descriptionText(storedDescription(HOSTILE)!)).toBe("Soft linen shirt.\n\nclick Care");
  expect(descriptionText(storedDescription("One & two\nthree\n\nfour")!)).toBe(
    "One & two\nthree\n\nfour",
  );
  expect(descriptionText("<h2>Fit</h2><ul><li>Relaxed</li><li>Long</li></ul>")).toBe(
    "Fit\n\n * Relaxed\n * Long",
  );
});

test("clipped to a channel's limit, the markup counted: as it is when it fits, else its text cut to fit", () => {
  const short = storedDescription("<p>Short & <b>bold</b></p>")!;
  expect(clipDescriptionHtml(short, 4000)).toBe(short);
  const long = storedDescription(
    `<p>${"Stoneware & glaze, <b>bold</b>. ".repeat(300)}</p><p>The end.</p>`,
  )!;
  expect(long.length).toBeGreaterThan(4000);
  const clipped = clipDescriptionHtml(long, 4000);
  expect(clipped.length).toBeLessThanOrEqual(4000);
  expect(clipped.length).toBeGreaterThan(3000);
  expect(clipped).toMatch(/^<p>Stoneware &amp; glaze, bold\. /);
  expect(storedDescription(clipped)).toBe(clipped);
});
