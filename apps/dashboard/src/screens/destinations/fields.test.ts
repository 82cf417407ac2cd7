import { describe, expect, it } from "vitest";
import type { ChannelField } from "@catalog/gateway/api-types";
import {
  changedSettings,
  connectParams,
  connectRefusal,
  fieldErrors,
  settingsValues,
} from "./fields";

const field = (name: string, label: string, required = true): ChannelField => ({
  name,
  label,
  required,
  description: "",
  placeholder: null,
  pattern: null,
  choices: null,
});
const EBAY = [
  field("marketplaceId", "Marketplace"),
  field("categoryId", "Category id"),
  field("returnPolicyId", "Return policy id"),
  field("returnPolicyIdAlt", "Second return policy id", false),
];

describe("fieldErrors", () => {
  it("puts each part of a 422 on the field it names, in the words of its label", () => {
    expect(
      fieldErrors("settings: returnPolicyId is required; categoryId must be a number", EBAY),
    ).toEqual({
      byField: {
        returnPolicyId: "Return policy id is required",
        categoryId: "Category id must be a number",
      },
      general: [],
    });
  });

  it("matches whole names only, the longest first", () => {
    expect(fieldErrors("returnPolicyIdAlt is too long", EBAY).byField).toEqual({
      returnPolicyIdAlt: "Second return policy id is too long",
    });
    expect(fieldErrors("xcategoryId is odd", EBAY)).toEqual({
      byField: {},
      general: ["XcategoryId is odd"],
    });
  });

  it("joins two messages for one field and keeps the rest for the top of the form", () => {
    expect(
      fieldErrors(
        "categoryId is required; the store refused the change; categoryId must be a leaf",
        EBAY,
      ),
    ).toEqual({
      byField: { categoryId: "Category id is required; Category id must be a leaf" },
      general: ["The store refused the change"],
    });
  });
});

describe("settings values", () => {
  it("reads a store's settings as text, empty where it has none", () => {
    expect(
      settingsValues(EBAY, { marketplaceId: "EBAY_GB", categoryId: 31388, returnPolicyId: null }),
    ).toEqual({
      marketplaceId: "EBAY_GB",
      categoryId: "31388",
      returnPolicyId: "",
      returnPolicyIdAlt: "",
    });
  });

  it("sends only what changed: trimmed values, null for an emptied field", () => {
    const initial = {
      marketplaceId: "EBAY_GB",
      categoryId: "31388",
      returnPolicyId: "",
      returnPolicyIdAlt: "",
    };
    expect(
      changedSettings(EBAY, { ...initial, categoryId: "", returnPolicyId: " 619 " }, initial),
    ).toEqual({ categoryId: null, returnPolicyId: "619" });
    expect(changedSettings(EBAY, initial, initial)).toEqual({});
  });
});

it("connectParams sends the filled fields and names the required ones missing", () => {
  const shopify = [field("shop", "Shop domain"), field("note", "Note", false)];
  expect(connectParams(shopify, { shop: " demo.myshopify.com ", note: "" })).toEqual({
    params: { shop: "demo.myshopify.com" },
    missing: {},
  });
  expect(connectParams(shopify, { note: "x" })).toEqual({
    params: { note: "x" },
    missing: { shop: "Enter the shop domain" },
  });
});

it("connectParams checks a field's shape before the form leaves the dashboard", () => {
  const shop = {
    ...field("shop", "Shop domain"),
    placeholder: "acme.myshopify.com",
    pattern: "^[A-Za-z0-9][A-Za-z0-9-]*\\.myshopify\\.com$",
  };
  expect(connectParams([shop], { shop: "harbour shop" }).missing).toEqual({
    shop: "Shop domain should look like acme.myshopify.com",
  });
  expect(connectParams([shop], { shop: " Harbour.myshopify.com " }).missing).toEqual({});
});

it("connectRefusal puts the gateway's reason on the field it names, else on the form", () => {
  const fields = [field("shop", "Shop domain")];
  expect(connectRefusal("querystring/shop must be the shop's domain", fields)).toEqual({
    field: "shop",
    text: "Shop domain must be the shop's domain",
  });
  expect(connectRefusal("this connect attempt is unknown: connect again", fields)).toEqual({
    field: null,
    text: "This connect attempt is unknown: connect again",
  });
});
