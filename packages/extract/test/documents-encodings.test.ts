import { Readable } from "node:stream";
import { xlsxWorkbook } from "@catalog/testing/xlsx-workbook";
import iconv from "iconv-lite";
import {
  describeDocument,
  encodingName,
  MalformedDocumentError,
  parseDocument,
  UnknownEncodingError,
  type DocumentMeta,
  type DocumentRow,
  type EncodingChoice,
} from "../src/documents/index.js";
import { stringMatching } from "@catalog/test-support/matchers";

interface Parsed {
  rows: DocumentRow[];
  /** What onEncoding was told; undefined if it was never called. */
  encoding: EncodingChoice | null | undefined;
  calls: number;
}

/** Parses the bytes fed in chunks of `chunkSize` (so characters are split across chunks). */
async function parse(
  bytes: Buffer,
  meta: Partial<DocumentMeta> = {},
  chunkSize = 65_536,
): Promise<Parsed> {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  const out: Parsed = { rows: [], encoding: undefined, calls: 0 };
  const onEncoding = (choice: EncodingChoice | null) => {
    out.encoding = choice;
    out.calls++;
  };
  for await (const row of parseDocument(Readable.from(chunks), {
    maxBytes: 10_000_000,
    onEncoding,
    ...meta,
  }))
    out.rows.push(row);
  return out;
}

const titles = (rows: DocumentRow[]) => rows.flatMap((r) => (r.ok ? [r.product.title] : []));
const brands = (rows: DocumentRow[]) => rows.flatMap((r) => (r.ok ? [r.product.brand] : []));

// Product lists as shops in each language write them: several rows of real words, as a
// detector needs (a line or two of text in similar code pages is ambiguous by nature). The
// headers are the ones the importer recognises.
const HEADER = ["Title", "SKU", "Price", "Brand", "Description"];
const RUSSIAN = [
  HEADER,
  ["Чайник электрический", "RU-1", "1990", "Витязь", "Стеклянный корпус, синяя подсветка"],
  ["Утюг паровой", "RU-2", "2490", "Скарлетт", "Керамическая подошва, защита от накипи"],
  ["Пылесос беспроводной", "RU-3", "8990", "Кёрхер", "Мощный и тихий, работает до часа"],
  ["Мясорубка", "RU-4", "3590", "Редмонд", "Три насадки в комплекте"],
  ["Кофеварка капельная", "RU-5", "4290", "Поларис", "Объём кувшина полтора литра"],
];
const JAPANESE = [
  HEADER,
  ["電気ケトル", "JP-1", "3980", "タイガー", "ガラス製で中が見やすい"],
  ["スチームアイロン", "JP-2", "4980", "パナソニック", "軽量でしわがよく伸びる"],
  ["コードレス掃除機", "JP-3", "19800", "マキタ", "静かでパワフルな吸引力"],
  ["炊飯器", "JP-4", "12800", "象印", "おいしいご飯が炊ける"],
  ["電子レンジ", "JP-5", "15800", "シャープ", "解凍もあたためも簡単"],
];
const POLISH = [
  HEADER,
  ["Czajnik elektryczny", "PL-1", "129.99", "Zelmer", "Szklana obudowa, niebieskie podświetlenie"],
  ["Żelazko parowe", "PL-2", "199.00", "Łucznik", "Ceramiczna stopa, łatwe prasowanie"],
  [
    "Odkurzacz bezprzewodowy",
    "PL-3",
    "899.00",
    "Ślęza",
    "Cichy i mocny, źródło zasilania na godzinę",
  ],
  ["Maszynka do mięsa", "PL-4", "349.00", "Zelmer", "Trzy końcówki w zestawie"],
  ["Ekspres przelewowy", "PL-5", "259.00", "Gośćwin", "Dzbanek półtora litra, podgrzewanie"],
];
const CZECH = [
  HEADER,
  ["Rychlovarná konvice", "CZ-1", "899", "Eta", "Skleněná, modré podsvícení"],
  ["Napařovací žehlička", "CZ-2", "1299", "Sencor", "Keramická žehlicí plocha"],
  ["Bezdrátový vysavač", "CZ-3", "4990", "Concept", "Tichý a výkonný, dlouhá výdrž baterie"],
  ["Mlýnek na maso", "CZ-4", "1590", "Tescoma", "Tři nástavce v balení, snadné čištění"],
  ["Kávovar na překapávanou kávu", "CZ-5", "1190", "Eta", "Konvička na jeden a půl litru"],
];
const CHINESE = [
  HEADER,
  ["电热水壶", "CN-1", "199", "美的", "玻璃机身，蓝光照明"],
  ["蒸汽熨斗", "CN-2", "299", "飞利浦", "陶瓷底板，轻松熨烫"],
  ["无线吸尘器", "CN-3", "1299", "戴森", "安静而强劲的吸力"],
  ["绞肉机", "CN-4", "399", "九阳", "三种刀头配件"],
  ["滴漏式咖啡机", "CN-5", "459", "德龙", "一点五升玻璃壶"],
];
const KOREAN = [
  HEADER,
  ["전기 주전자", "KR-1", "39000", "쿠쿠", "유리 본체와 파란 조명"],
  ["스팀 다리미", "KR-2", "59000", "필립스", "세라믹 열판으로 쉬운 다림질"],
  ["무선 청소기", "KR-3", "299000", "다이슨", "조용하고 강력한 흡입력"],
  ["고기 분쇄기", "KR-4", "89000", "신일", "세 가지 날 구성"],
  ["커피 메이커", "KR-5", "79000", "드롱기", "일점오 리터 유리 주전자"],
];
const TURKISH = [
  ["Title", "SKU", "Price", "Brand"],
  ["Elektrikli çaydanlık", "TR-1", "499", "Arçelik"],
  ["Buharlı ütü", "TR-2", "899", "Beko"],
  ["Kablosuz süpürge", "TR-3", "2499", "Vestel, güçlü ve sessiz"],
];

const csv = (table: string[][], delimiter = ",") =>
  table
    .map((cells) => cells.map((c) => (c.includes(delimiter) ? `"${c}"` : c)).join(delimiter))
    .join("\r\n") + "\r\n";

describe("CSV/TSV in legacy encodings: detected, decoded, and named in the answer", () => {
  test.each([
    ["windows-1251", "Russian", RUSSIAN, ";"],
    ["shift_jis", "Japanese", JAPANESE, ","],
    ["windows-1250", "Polish", POLISH, ";"],
    ["windows-1250", "Czech", CZECH, ";"],
    ["gb18030", "Chinese", CHINESE, ","],
    ["euc-kr", "Korean", KOREAN, "\t"],
  ] as const)("%s (%s)", async (encoding, _language, table, delimiter) => {
    const bytes = iconv.encode(csv(table, delimiter), encoding);
    expect(bytes.equals(Buffer.from(csv(table, delimiter)))).toBe(false);
    // Small chunks: multi-byte characters are split across them.
    const {
      rows,
      encoding: used,
      calls,
    } = await parse(bytes, { currency: "EUR", filename: "products.csv" }, 7);
    expect(used).toEqual({ name: encoding, source: "detected" });
    expect(calls).toBe(1);
    expect(rows.every((r) => r.ok)).toBe(true);
    expect(titles(rows)).toEqual(table.slice(1).map((r) => r[0]));
    expect(brands(rows)).toEqual(table.slice(1).map((r) => r[3]));
    expect(rows[0]).toMatchObject({
      row: 2,
      ok: true,
      product: { sku: table[1]![1], description: table[1]![4] },
    });
    expect(describeDocument(bytes, { filename: "products.csv" })).toMatchObject({
      format: "csv",
      encoding,
    });
  });

  test.each([
    ["windows-1251", "Title;Price\r\nЧайник;1990\r\n", "Чайник"],
    ["koi8-r", "Title;Price\r\nЧайник электрический;1990\r\n", "Чайник электрический"],
    ["windows-1250", "Title;Price\r\nŚwieca zapachowa;19,99\r\n", "Świeca zapachowa"],
    ["windows-1252", "Title,Price\r\nCrème brûlée,4.20\r\n", "Crème brûlée"],
  ])(
    "a one-row file in %s, too short for the detector's statistics, reads as words",
    async (encoding, text, title) => {
      const { rows, encoding: used } = await parse(iconv.encode(text, encoding), {
        currency: "EUR",
      });
      expect(used).toEqual({ name: encoding, source: "detected" });
      expect(titles(rows)).toEqual([title]);
    },
  );

  test("windows-1251 Cyrillic rows keep their prices, and the header is recognised through the decoding", async () => {
    const bytes = iconv.encode(csv(RUSSIAN, ";"), "windows-1251");
    const { rows } = await parse(bytes, { currency: "RUB" });
    expect(rows).toHaveLength(5);
    expect(rows[2]).toMatchObject({
      ok: true,
      product: {
        title: "Пылесос беспроводной",
        brand: "Кёрхер",
        price: { amount: "8990.00", currency: "RUB" },
      },
    });
  });

  test("the encoding the uploader names is used instead of detecting one", async () => {
    // Short Turkish text scores higher as Baltic windows-1257 than as windows-1254, which it is:
    // "ş" and "ı" come out wrong. Naming the encoding is the way out.
    const bytes = iconv.encode(csv(TURKISH, ";"), "windows-1254");
    const guessed = await parse(bytes);
    expect(guessed.encoding?.source).toBe("detected");
    const named = await parse(bytes, { encoding: "Windows-1254" });
    expect(named.encoding).toEqual({ name: "windows-1254", source: "named" });
    expect(titles(named.rows)).toEqual(["Elektrikli çaydanlık", "Buharlı ütü", "Kablosuz süpürge"]);
    expect(named.rows.every((r) => r.ok)).toBe(true);
  });

  test("a named encoding wins over evidence: UTF-8 bytes read as windows-1252 when the uploader says so", async () => {
    const bytes = Buffer.from("Title,Price\nCafé,2.00\nCrème brûlée,3.50\n");
    expect((await parse(bytes)).encoding).toEqual({ name: "utf-8", source: "detected" });
    const named = await parse(bytes, { encoding: "cp1252" });
    expect(named.encoding).toEqual({ name: "windows-1252", source: "named" });
    expect(titles(named.rows)).toEqual(["CafÃ©", "CrÃ¨me brÃ»lÃ©e"]);
  });

  test("an encoding no decoder knows is refused before anything is read (400)", async () => {
    const error = await parse(Buffer.from("Title\nA\n"), { encoding: "klingon-8" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnknownEncodingError);
    expect(error).toMatchObject({
      status: 400,
      message: stringMatching(/"klingon-8" is not a text encoding/),
    });
    await expect(parse(Buffer.from("Title\nA\n"), { encoding: "base64" })).rejects.toThrow(
      UnknownEncodingError,
    );
  });

  test("names the uploader may use are reported the usual way", () => {
    expect(encodingName("CP1251")).toBe("windows-1251");
    expect(encodingName("SJIS")).toBe("shift_jis");
    expect(encodingName("windows-31j")).toBe("shift_jis");
    expect(encodingName("EUC-KR")).toBe("euc-kr");
    expect(encodingName("latin1")).toBe("iso-8859-1");
    expect(encodingName("UTF8")).toBe("utf-8");
    expect(encodingName("gb18030")).toBe("gb18030");
    expect(encodingName("nonsense")).toBeNull();
    expect(encodingName("hex")).toBeNull();
  });
});

describe("UTF-8 with stray bytes stays UTF-8", () => {
  const ROWS = [
    "Title,SKU,Price,Currency,Description",
    "Café crème,FR-1,3.50,EUR,Mélange doux et léger",
    "Crème brûlée,FR-2,4.20,EUR,Caramélisée à la flamme",
    "Pâté en croûte,FR-3,7.90,EUR,Recette de l'épicier",
    "Tarte à la rhubarbe,FR-4,5.10,EUR,Pâte sablée maison",
    "Soupe à l'oignon,FR-5,6.00,EUR,Gratinée au comté",
  ];

  /**
   * The file as UTF-8 with one byte in row 3 (the "û" of "brûlée") replaced by a windows-1252 "û"
   * (0xfb).
   */
  function withStrayByte(lines: string[]): Buffer {
    const good = Buffer.from(lines.join("\n") + "\n");
    const at = good.indexOf(Buffer.from("brûlée"));
    return Buffer.concat([good.subarray(0, at + 2), Buffer.from([0xfb]), good.subarray(at + 4)]);
  }

  test("one invalid byte in row 3: every other row's é intact, row 3 reported and not imported", async () => {
    const { rows, encoding } = await parse(withStrayByte(ROWS));
    expect(encoding).toEqual({ name: "utf-8", source: "detected" });
    expect(rows).toHaveLength(5);
    expect(titles(rows)).toEqual([
      "Café crème",
      "Pâté en croûte",
      "Tarte à la rhubarbe",
      "Soupe à l'oignon",
    ]);
    expect(rows[0]).toMatchObject({ ok: true, product: { description: "Mélange doux et léger" } });
    const bad = rows.find((r) => r.row === 3);
    expect(bad).toEqual({
      row: 3,
      ok: false,
      error: stringMatching(
        /^row 3: column "Title" holds bytes that are not valid utf-8 text \("Crème br\ufffdlée"\)/,
      ),
    });
    expect(bad!.ok === false && bad!.error).toMatch(
      /not imported; correct it, or import the file again naming its encoding/,
    );
    expect(titles(rows).join("")).not.toMatch(/Ã|\ufffd/);
  });

  test("the stray byte after 64 KB of plain ASCII: decided from the first bytes that are not ASCII", async () => {
    const filler = Array.from(
      { length: 3000 },
      (_, i) => `Plain item ${i},P-${i},1.00,EUR,Nothing special`,
    );
    const bytes = withStrayByte([ROWS[0]!, ...filler, ...ROWS.slice(1)]);
    expect(bytes.indexOf(0xfb)).toBeGreaterThan(65_536);
    const { rows, encoding } = await parse(bytes, {}, 16_384);
    expect(encoding).toEqual({ name: "utf-8", source: "detected" });
    expect(rows.filter((r) => !r.ok)).toEqual([
      {
        row: 3003,
        ok: false,
        error: stringMatching(/^row 3003: column "Title" holds bytes that are not valid utf-8/),
      },
    ]);
    expect(rows.at(-1)).toMatchObject({
      ok: true,
      product: { title: "Soupe à l'oignon", description: "Gratinée au comté" },
    });
  });

  test("a header with bytes its encoding cannot decode refuses the file (422): columns would be misnamed", async () => {
    const bytes = Buffer.concat([
      Buffer.from("Titl"),
      Buffer.from([0xe9]),
      Buffer.from(",Price\n"),
      Buffer.from(ROWS.slice(1).join("\n")),
    ]);
    const error = await parse(bytes, { encoding: "utf-8" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedDocumentError);
    expect((error as Error).message).toMatch(
      /^the header row holds bytes that are not valid utf-8 text \("Titl\ufffd"\)/,
    );
  });

  test("a file of plain ASCII is reported as UTF-8", async () => {
    const { encoding, rows } = await parse(Buffer.from("Title,Price\nLamp,12.00\n"), {
      currency: "EUR",
    });
    expect(encoding).toEqual({ name: "utf-8", source: "detected" });
    expect(rows).toHaveLength(1);
  });

  test("UTF-16 by its BOM is reported as such", async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from("Title\tPrice\nÄpfel\t2.5\n", "utf16le"),
    ]);
    const { encoding, rows } = await parse(bytes, { currency: "EUR" }, 5);
    expect(encoding).toEqual({ name: "utf-16le", source: "detected" });
    expect(titles(rows)).toEqual(["Äpfel"]);
  });
});

describe("XLSX, JSON and NDJSON: no encoding to choose", () => {
  test("JSON is UTF-8 whatever is named; the encoding reported is null", async () => {
    const json = Buffer.from(JSON.stringify([{ title: "Café", price: "2.00", currency: "EUR" }]));
    const { rows, encoding, calls } = await parse(json, {
      filename: "p.json",
      encoding: "windows-1251",
    });
    expect([encoding, calls]).toEqual([null, 1]);
    expect(titles(rows)).toEqual(["Café"]);
    expect(describeDocument(json, { filename: "p.json" })).toEqual({
      format: "json",
      encoding: null,
      delimiter: null,
    });
  });

  test("a JSON item or NDJSON line with bytes that are not UTF-8 is reported, the others imported", async () => {
    const latin1 = (text: string) => Buffer.from(text, "latin1");
    const json = Buffer.concat([
      Buffer.from('[{"title":"Café"},'),
      latin1('{"title":"Crème"},'),
      Buffer.from('{"title":"Thé"}]'),
    ]);
    const parsed = await parse(json, { filename: "p.json" });
    expect(titles(parsed.rows)).toEqual(["Café", "Thé"]);
    expect(parsed.rows[1]).toEqual({
      row: 2,
      ok: false,
      error: stringMatching(/^item 2: holds bytes that are not valid UTF-8/),
    });
    const ndjson = Buffer.concat([
      Buffer.from('{"title":"Café"}\n'),
      latin1('{"title":"Crème"}\n'),
      Buffer.from('{"title":"Thé"}\n'),
    ]);
    const lines = await parse(ndjson, { filename: "p.ndjson" });
    expect(titles(lines.rows)).toEqual(["Café", "Thé"]);
    expect(lines.rows[1]).toEqual({
      row: 2,
      ok: false,
      error: stringMatching(/^line 2: holds bytes that are not valid UTF-8/),
    });
  });

  test("XLSX reports null", async () => {
    const workbook = xlsxWorkbook([
      {
        name: "Products",
        rows: [
          ["Title", "Price", "Currency"],
          ["Чайник", 19.9, "EUR"],
        ],
      },
    ]);
    const { rows, encoding, calls } = await parse(workbook, {
      filename: "p.xlsx",
      encoding: "shift_jis",
    });
    expect([encoding, calls]).toEqual([null, 1]);
    expect(titles(rows)).toEqual(["Чайник"]);
  });
});

describe("retired currencies in documents", () => {
  test("HRK in the Currency column or kn / лв in the price: the amount is kept without a currency, not as the store's", async () => {
    const table = [
      "Title,Price,Currency",
      "Kuna lamp,199.00,HRK",
      'Kuna chair,"249,00 kn",',
      "Lev table,550 лв.,",
      "Euro stool,19.90,EUR",
      "Plain shelf,30.00,",
    ].join("\n");
    const { rows } = await parse(Buffer.from(table), { currency: "EUR" });
    const byTitle = new Map(
      rows.flatMap((r) => (r.ok ? [[r.product.title, r.product] as const] : [])),
    );
    for (const [title, amount] of [
      ["Kuna lamp", "199.00"],
      ["Kuna chair", "249.00"],
      ["Lev table", "550.00"],
    ] as const) {
      expect(byTitle.get(title)).toMatchObject({
        price: null,
        attributes: { priceWithoutCurrency: amount },
      });
    }
    expect(byTitle.get("Euro stool")!.price).toEqual({ amount: "19.90", currency: "EUR" });
    expect(byTitle.get("Plain shelf")!.price).toEqual({ amount: "30.00", currency: "EUR" });
  });

  test("a nested JSON price in HRK is not stored as the store's currency either", async () => {
    const json = Buffer.from(
      JSON.stringify([{ title: "Kuna lamp", price: { amount: "199.00", currency: "HRK" } }]),
    );
    const { rows } = await parse(json, { filename: "p.json", currency: "EUR" });
    expect(rows[0]).toMatchObject({
      ok: true,
      product: { price: null, attributes: { priceWithoutCurrency: "199.00" } },
    });
  });
});
