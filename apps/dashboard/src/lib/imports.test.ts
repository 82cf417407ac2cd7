import { expect, it } from "vitest";
import { encodingLabel, encodingText, isWorking, mappingText } from "./imports";

it("encodingText says which encoding was used and who chose it", () => {
  expect(encodingText({ name: "windows-1251", source: "detected" })).toBe(
    "windows-1251 (detected)",
  );
});

it("encodingLabel names the common encodings and no others", () => {
  expect(encodingLabel("windows-1251")).toBe("Cyrillic (windows-1251)");
  expect(encodingLabel("shift_jis")).toBe("Japanese (Shift_JIS)");
  expect(encodingLabel("x-mac-roman")).toBeNull();
});

it("isWorking is true while an import is read or stored", () => {
  expect(isWorking("previewing")).toBe(true);
  expect(isWorking("storing")).toBe(true);
  expect(isWorking("ready")).toBe(false);
  expect(isWorking(undefined)).toBe(false);
});

it("mappingText says which mapping read the columns", () => {
  expect(mappingText({ source: "template", templateId: "t1", templateName: "Supplier A" })).toBe(
    "Columns read with your saved mapping “Supplier A”",
  );
  expect(mappingText({ source: "template", templateId: null, templateName: null })).toBe(
    "Columns read with a saved mapping (deleted since)",
  );
  expect(mappingText({ source: "given", templateId: null, templateName: null })).toBe(
    "Columns read with the mapping you chose",
  );
});
