/**
 * A page without its structured data: JSON-LD scripts, microdata and RDFa attributes, and
 * OpenGraph, product and Twitter meta tags removed, the rest as it was. What the text rules
 * alone read from it is how they fare on the shops (about a third of them) that publish none.
 * Platform data (Shopify's product JSON, WooCommerce's forms) stays: it is part of the page.
 */
export function stripMarkup(html: string): string {
  return html
    .replace(/<script\b[^>]*application\/ld\+json[^>]*>[\s\S]*?<\/script\s*>/gi, "")
    .replace(
      /<meta\b[^>]*\b(?:property|name)\s*=\s*["']?(?:og|product|twitter|article):[^>]*>/gi,
      "",
    )
    .replace(
      /\s(?:itemprop|itemscope|itemtype|itemid|itemref|typeof|vocab|property|resource|about|rel="?schema)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?/gi,
      "",
    );
}
