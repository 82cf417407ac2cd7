import { load } from "cheerio/slim";
import { sharedInput } from "@catalog/test-support/shared-inputs";
import { parseHtml } from "../src/html/parse-html.js";
import { corpusDir, loadCorpus } from "./support/corpus-accuracy.js";

// parseHtml must read every page exactly as cheerio/slim's own load does: extraction depends
// on every element, attribute and text node being the same.

interface Node {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: Node[];
}

/** The DOM as plain data: kinds, names, attributes in order, texts. */
function shape(node: Node): unknown {
  return [
    node.type,
    node.name ?? null,
    node.data ?? null,
    node.attribs ? Object.entries(node.attribs) : null,
    (node.children ?? []).map(shape),
  ];
}

const read = (html: string) => shape(parseHtml(html).root().get(0) as unknown as Node);
const stock = (html: string) => shape(load(html).root().get(0) as unknown as Node);

const EDGE_CASES: Record<string, string> = {
  "entities in text, with and without semicolons":
    "<p>a &amp; b &copy 2024 &#169; &#x41; &notin; &notit; &</p>",
  "entities in attribute values, legacy ones left as they are before = or letters":
    '<a href="/p?a=1&b=2&copy=3&amp;x" title=\'Tom &amp; Jerry\' data-x="&lt;b&gt;">x</a>',
  "unquoted attribute values": "<input value=a&amp;b name=q disabled><img src=x.png alt=>",
  "entities in the title, none in scripts and styles":
    "<title>Mugs &amp; Cups</title><script>if (a<b && c) x='</scr'+'ipt>'</script><style>a>b{content:'&amp;'}</style>",
  "comments and CDATA holding < and &": "<div><!-- a < b & c --><![CDATA[ x & y ]]>after</div>",
  "a page without any &":
    "<html><head></head><body><h1 class='t'>Title</h1><p>Only text</p></body></html>",
  "text only, no tags": "plain text & more",
  "input that ends inside an entity": "<p>unterminated &am",
  "input that ends inside an attribute value": '<p class="open &amp; never closed',
  "input that ends inside a comment": "<p>x</p><!-- open & <never closed",
  "raw text elements":
    "<textarea>&lt;b&gt; <i>kept</i></textarea><xmp>&amp;</xmp><noscript>&amp;<img src=n></noscript>",
  "JSON-LD with quotes and ampersands":
    '<script type="application/ld+json">{"name":"Salt & Pepper \\"Mill\\"","url":"/p?a=1&b=2"}</script>',
  "svg with long path data": `<svg><path d="${"M0 0 L10 10 ".repeat(500)}"/><text>a&lt;b</text></svg>`,
  "mixed quotes inside values": `<div data-a="it's" data-b='say "hi"' data-c="&quot;q&quot;">ok</div>`,
};

describe("parseHtml reads pages as cheerio's own load does", () => {
  for (const [name, html] of Object.entries(EDGE_CASES)) {
    it(name, () => {
      expect(read(html)).toEqual(stock(html));
    });
  }
});

const corpus = corpusDir();
const available =
  sharedInput({
    what: "the page corpus",
    path: new URL("expected-pages.jsonl", corpus),
    tests: "the parser equivalence test on real pages",
  }) !== null;

(available ? describe : describe.skip)("parseHtml on the shared page corpus", () => {
  it("gives the same DOM as cheerio's own load on every page", () => {
    const { pages } = loadCorpus(corpus);
    const differing = pages
      .filter((page) => JSON.stringify(read(page.html)) !== JSON.stringify(stock(page.html)))
      .map((page) => page.expected.file);
    expect(differing).toEqual([]);
    expect(pages.length).toBeGreaterThan(0);
  });
});
