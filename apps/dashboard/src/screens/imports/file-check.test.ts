import { describe, expect, it } from "vitest";
import { fileProblem, formatBytes } from "./file-check";

describe("fileProblem", () => {
  it("takes the file kinds an import reads, whatever the case of the extension", () => {
    for (const name of [
      "products.csv",
      "export.TSV",
      "book.xlsx",
      "items.json",
      "items.ndjson",
      "feed.XML",
    ]) {
      expect(fileProblem({ name, size: 10 })).toBeNull();
    }
  });

  it("names the file and the kinds it could have been", () => {
    expect(fileProblem({ name: "photo.png", size: 10 })).toBe(
      "“photo.png” is not a file this import reads: choose a .csv, .tsv, .xlsx, .json, .ndjson, .xml file",
    );
  });

  it("refuses an empty file", () => {
    expect(fileProblem({ name: "empty.csv", size: 0 })).toBe("“empty.csv” is empty");
  });
});

it("formatBytes reads as bytes, KB or MB", () => {
  expect(formatBytes(512)).toBe("512 bytes");
  expect(formatBytes(1536)).toBe("1.5 KB");
  expect(formatBytes(5 * 1024 * 1024)).toBe("5.0 MB");
});
