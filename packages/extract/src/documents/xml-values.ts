import type { XmlNode } from "./xml-items.js";

/**
 * An item of a plain XML product list as the object JSON would give, for the same key
 * recognition (json-product.ts): child elements and attributes become keys; an element repeated
 * becomes a list, as does a wrapper of one repeated element (`<images><image>`); a price with a
 * currency attribute (`<price currency="EUR">12.50</price>`) becomes `{amount, currency}`.
 */
export function xmlObject(node: XmlNode): Record<string, unknown> {
  const out: Record<string, unknown> = { ...node.attributes };
  const counts = new Map<string, number>();
  for (const child of node.children) counts.set(child.name, (counts.get(child.name) ?? 0) + 1);
  for (const child of node.children) {
    const value = xmlValue(child);
    if ((counts.get(child.name) ?? 0) < 2) out[child.name] = value;
    else if (Array.isArray(out[child.name])) (out[child.name] as unknown[]).push(value);
    else out[child.name] = [value];
  }
  return out;
}

function xmlValue(node: XmlNode): unknown {
  if (node.children.length === 0) {
    const currency = node.attributes.currency ?? node.attributes.currencyCode;
    return currency !== undefined ? { amount: node.text, currency } : node.text;
  }
  const names = new Set(node.children.map((c) => c.name));
  const only = node.children[0]!.name;
  if (
    names.size === 1 &&
    only !== node.name &&
    (node.children.length > 1 || node.name.startsWith(only))
  )
    return node.children.map(xmlValue);
  return xmlObject(node);
}
