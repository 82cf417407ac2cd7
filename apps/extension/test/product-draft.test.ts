import type { ProductFields } from "../src/shared/api";
import { checkDraft, draftOf } from "../src/popup/product-draft";

const product: ProductFields = {
  title: "Walnut board",
  sku: "WB-1",
  description: "Oiled walnut.",
  price: { amount: "38.00", currency: "EUR" },
  images: [
    "https://shop.example/a.jpg",
    "https://shop.example/b.jpg",
    "https://shop.example/c.jpg",
  ],
  brand: "Acme",
  gtin: null,
  mpn: null,
  availability: "InStock",
  quantity: null,
  variants: [],
  attributes: {},
  sourceUrl: "https://shop.example/p/wb",
};

test("an untouched preview sends no edits, so the service keeps its own reading", () => {
  expect(checkDraft(draftOf(product), product)).toEqual({ ok: true, edits: {} });
});

test("only the fields the user changed are sent, tidied", () => {
  const draft = {
    ...draftOf(product),
    title: "  Walnut serving board ",
    amount: "41,50",
    brand: "",
    images: ["https://shop.example/a.jpg", "https://shop.example/c.jpg"],
  };
  expect(checkDraft(draft, product)).toEqual({
    ok: true,
    edits: {
      title: "Walnut serving board",
      price: { amount: "41.50", currency: "EUR" },
      brand: null,
      images: ["https://shop.example/a.jpg", "https://shop.example/c.jpg"],
    },
  });
  expect(checkDraft({ ...draftOf(product), currency: "usd" }, product)).toEqual({
    ok: true,
    edits: { price: { amount: "38.00", currency: "USD" } },
  });
  expect(checkDraft({ ...draftOf(product), amount: "", currency: "" }, product)).toEqual({
    ok: true,
    edits: { price: null },
  });
});

test("what the service would refuse is said at the field", () => {
  expect(checkDraft({ ...draftOf(product), title: "   " }, product)).toEqual({
    ok: false,
    errors: { title: "A product needs a title" },
  });
  expect(checkDraft({ ...draftOf(product), amount: "1.299,00" }, product)).toEqual({
    ok: false,
    errors: { amount: "A price reads like 19.99" },
  });
  expect(checkDraft({ ...draftOf(product), currency: "EURO" }, product)).toEqual({
    ok: false,
    errors: { currency: "A 3-letter code such as EUR" },
  });
  expect(checkDraft({ ...draftOf(product), amount: "" }, product)).toEqual({
    ok: false,
    errors: { amount: "Enter the price, or clear the currency" },
  });
  const noPrice = { ...product, price: null };
  expect(checkDraft({ ...draftOf(noPrice), amount: "12" }, noPrice)).toEqual({
    ok: false,
    errors: { currency: "A 3-letter code such as EUR" },
  });
});

test("a description the service keeps as paragraphs is edited as the text it was; one with other markup as its HTML", () => {
  const stored = {
    ...product,
    description: "<p>Oiled walnut &amp; beeswax.<br />Hand wash.</p><p>Made in Vermont &lt;3</p>",
  };
  expect(draftOf(stored).description).toBe(
    "Oiled walnut & beeswax.\nHand wash.\n\nMade in Vermont <3",
  );
  expect(checkDraft(draftOf(stored), stored)).toEqual({ ok: true, edits: {} });
  expect(
    checkDraft({ ...draftOf(stored), description: "Oiled walnut.\nHand wash." }, stored),
  ).toEqual({ ok: true, edits: { description: "Oiled walnut.\nHand wash." } });
  const rich = {
    ...product,
    description: "<p>Oiled <b>walnut</b>.</p><ul><li>Hand wash</li></ul>",
  };
  expect(draftOf(rich).description).toBe(rich.description);
});

test("the stock is sent when the user changed it: a whole number, or null when cleared", () => {
  expect(draftOf({ ...product, quantity: 4 }).quantity).toBe("4");
  expect(checkDraft({ ...draftOf(product), quantity: " 12 " }, product)).toEqual({
    ok: true,
    edits: { quantity: 12 },
  });
  const stocked = { ...product, quantity: 4 };
  expect(checkDraft({ ...draftOf(stocked), quantity: "" }, stocked)).toEqual({
    ok: true,
    edits: { quantity: null },
  });
  for (const bad of ["-1", "2.5", "a few"])
    expect(checkDraft({ ...draftOf(product), quantity: bad }, product)).toEqual({
      ok: false,
      errors: { quantity: "A whole number from 0" },
    });
});
