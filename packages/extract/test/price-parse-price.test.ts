import { readFileSync } from "node:fs";
import { sharedInput, sharedPath } from "@catalog/test-support/shared-inputs";
import { currencyForRegion, parsePrice } from "../src/price/index.js";
import { isIsoCurrency } from "../src/price/currency-symbols.js";

describe("parsePrice", () => {
  test.each([
    ["1.299,00 €", "1299.00", "EUR"],
    ["$1,299", "1299.00", "USD"],
    ["R$ 24.990", "24990.00", "BRL"],
    ["£12.50", "12.50", "GBP"],
    ["12,50 zł", "12.50", "PLN"],
    ["CHF 1'299.–", "1299.00", "CHF"],
    ["CHF 1'049,95", "1049.95", "CHF"],
    ["¥1,500", "1500.00", "JPY"],
    ["8 390 руб.", "8390.00", "RUB"],
    ["1 298,00 Kč", "1298.00", "CZK"],
    [" 423.923 KD", "423.923", "KWD"],
    ["29.1583", "29.1583", null],
    ["$119. 95", "119.95", "USD"],
    ["35€99", "35.99", "EUR"],
    ["US$ 12.99", "12.99", "USD"],
    ["12,000원", "12000.00", "KRW"],
    ["$1,190.00 AUD", "1190.00", "AUD"],
  ])("%s -> %s %s", (text, amount, currency) => {
    expect(parsePrice(text)).toEqual({ amount, currency });
  });

  test("a range gives its lower end, a was/now pair its first price", () => {
    expect(parsePrice("$10 - $20")).toEqual({ amount: "10.00", currency: "USD" });
    expect(parsePrice("From 26 to 50 €")).toEqual({ amount: "26.00", currency: "EUR" });
    expect(parsePrice("from 9.99")).toEqual({ amount: "9.99", currency: null });
    expect(parsePrice("49,99 € 39,99 €")).toEqual({ amount: "49.99", currency: "EUR" });
    expect(parsePrice("€ 49,99 € 39,99")).toEqual({ amount: "49.99", currency: "EUR" });
  });

  test("a number printed with a currency wins over a bare count before it", () => {
    expect(parsePrice("3 Ausgaben für nur 14,85 EUR")).toEqual({
      amount: "14.85",
      currency: "EUR",
    });
  });

  test("no digits, free, or only a percentage is no price", () => {
    expect(parsePrice("Free")).toBeNull();
    expect(parsePrice("Sold out")).toBeNull();
    expect(parsePrice("40% OFF")).toBeNull();
    expect(parsePrice("")).toBeNull();
  });

  test("shared signs: USD by default, a hint or locale settles them, kr needs one", () => {
    expect(parsePrice("$5")?.currency).toBe("USD");
    expect(parsePrice("$5", { currency: "CAD" })?.currency).toBe("CAD");
    expect(parsePrice("$5", { currency: "C$" })?.currency).toBe("CAD");
    expect(parsePrice("$5", { locale: "es-MX" })?.currency).toBe("MXN");
    expect(parsePrice("€5", { currency: "USD" })?.currency).toBe("EUR");
    expect(parsePrice("120 kr")?.currency).toBeNull();
    expect(parsePrice("120 kr", { currency: "SEK" })?.currency).toBe("SEK");
    expect(parsePrice("12.50", { currency: "GBP" })).toEqual({ amount: "12.50", currency: "GBP" });
  });

  test("retired currencies (kuna, lev): the amount is read, the currency is none, and which one it was is said", () => {
    expect(parsePrice("199,99 kn")).toEqual({
      amount: "199.99",
      currency: null,
      retiredCurrency: "HRK",
    });
    expect(parsePrice("HRK 20.00")).toEqual({
      amount: "20.00",
      currency: null,
      retiredCurrency: "HRK",
    });
    expect(parsePrice("550,00 лв")).toEqual({
      amount: "550.00",
      currency: null,
      retiredCurrency: "BGN",
    });
    expect(parsePrice("3430 лв.")).toEqual({
      amount: "3430.00",
      currency: null,
      retiredCurrency: "BGN",
    });
    expect(parsePrice("12.00 BGN")).toEqual({
      amount: "12.00",
      currency: null,
      retiredCurrency: "BGN",
    });
    // Neither a hint nor a locale turns a price in kuna into one in euros.
    expect(parsePrice("199,99 kn", { currency: "EUR", locale: "hr-HR" })).toEqual({
      amount: "199.99",
      currency: null,
      retiredCurrency: "HRK",
    });
    // A retired code is no hint: a bare amount stays without a currency.
    expect(parsePrice("12.50", { currency: "HRK" })).toEqual({ amount: "12.50", currency: null });
    expect(parsePrice("12.50", { currency: "BGN" })?.currency).toBeNull();
  });

  test("Croatia and Bulgaria price in euros; HRK and BGN are not current ISO codes though ICU lists them", () => {
    expect(currencyForRegion("HR")).toBe("EUR");
    expect(currencyForRegion("BG")).toBe("EUR");
    expect(parsePrice("€ 19,99", { locale: "bg-BG" })).toEqual({
      amount: "19.99",
      currency: "EUR",
    });
    expect(Intl.supportedValuesOf("currency")).toEqual(expect.arrayContaining(["HRK", "BGN"]));
    expect([isIsoCurrency("HRK"), isIsoCurrency("BGN"), isIsoCurrency("EUR")]).toEqual([
      false,
      false,
      true,
    ]);
  });

  test("three digits after a lone separator are thousands unless the currency or locale says otherwise", () => {
    expect(parsePrice("1.299 €")?.amount).toBe("1299.00");
    expect(parsePrice("1,299")?.amount).toBe("1299.00");
    expect(parsePrice("1.299 KWD")?.amount).toBe("1.299");
    expect(parsePrice("0.750")?.amount).toBe("0.75");
    expect(parsePrice("1.299", { locale: "en-US" })?.amount).toBe("1.299");
    expect(parsePrice("1,299", { locale: "de-DE" })?.amount).toBe("1.299");
  });
});

// scrapinghub/price-parser's test strings (593), kept in the shared corpus beside the repo; with CI
// set, their absence fails the run.
const examplesFile = sharedPath("corpus/price-strings/price-parser-examples.jsonl");
const haveExamples =
  sharedInput({
    what: "price-parser's examples",
    path: examplesFile,
    tests: "the price-parser examples test",
  }) !== null;

interface Example {
  price_raw: string | null;
  currency_hint: string | null;
  expected_amount: string | null;
  expected_currency: string | null;
}

// Measured 577/593 (97.3%) on amounts and 521/521 on currencies; the guards sit a
// little below so that a regression fails, not a single changed example.
const AMOUNT_FLOOR = 0.96;
const CURRENCY_FLOOR = 0.98;
const ISO = new Set(Intl.supportedValuesOf("currency"));

(haveExamples ? describe : describe.skip)("parsePrice on price-parser's examples", () => {
  const examples = haveExamples
    ? readFileSync(examplesFile, "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as Example)
    : [];
  const parse = (e: Example) =>
    e.price_raw === null
      ? null
      : parsePrice(e.price_raw, e.currency_hint ? { currency: e.currency_hint } : {});

  test(`amount matches (as a decimal) on at least ${AMOUNT_FLOOR * 100}% of all examples`, () => {
    const failures: string[] = [];
    for (const example of examples) {
      const got = parse(example);
      const ok =
        example.expected_amount === null
          ? got === null
          : got !== null && Math.abs(Number(got.amount) - Number(example.expected_amount)) < 1e-9;
      if (!ok)
        failures.push(
          `${JSON.stringify(example.price_raw)} expected ${example.expected_amount} got ${got?.amount}`,
        );
    }
    const rate = (examples.length - failures.length) / examples.length;
    console.log(
      `parsePrice amounts: ${examples.length - failures.length}/${examples.length} (${(rate * 100).toFixed(1)}%)`,
    );
    expect(examples.length).toBe(593);
    expect(rate).toBeGreaterThanOrEqual(AMOUNT_FLOOR);
  });

  test(`currency agrees with the labelled sign on at least ${CURRENCY_FLOOR * 100}% of examples that have one`, () => {
    // Labels are signs as printed ("€", "руб."); an ISO code stands for itself, any other sign is
    // read through the same table (so "kr" expects null): this checks which sign is found.
    const labelled = examples.filter((e) => e.price_raw !== null && e.expected_currency !== null);
    const agree = labelled.filter((e) => {
      const raw = e.expected_currency as string;
      const expected = ISO.has(raw) ? raw : (parsePrice(`1 ${raw}`)?.currency ?? null);
      return (parse(e)?.currency ?? null) === expected;
    });
    const rate = agree.length / labelled.length;
    console.log(
      `parsePrice currencies: ${agree.length}/${labelled.length} (${(rate * 100).toFixed(1)}%)`,
    );
    expect(rate).toBeGreaterThanOrEqual(CURRENCY_FLOOR);
  });
});
