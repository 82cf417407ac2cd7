import { field, type ChannelField } from "../channel-fields.js";

export const EBAY_CONNECT_FIELDS: ChannelField[] = [];

// What checkEbaySettings requires (the first six) and what ebaySettings reads besides, with
// where a seller finds each value. A test checks that the required ones match the check.
export const EBAY_SETTINGS_FIELDS: ChannelField[] = [
  field("marketplaceId", "Marketplace", "The eBay site the listings go to", { placeholder: "EBAY_US" }),
  field("categoryId", "Category id", "The eBay leaf category of the listings", { placeholder: "31388" }),
  field("merchantLocationKey", "Inventory location key", "The key of the inventory location items ship from (Seller Hub > Shipping > Locations)"),
  field("paymentPolicyId", "Payment policy id", "The id of the business policy for payment (Account > Business policies)"),
  field("returnPolicyId", "Return policy id", "The id of the business policy for returns"),
  field("fulfillmentPolicyId", "Shipping policy id", "The id of the business policy for shipping (fulfillment)"),
  field("contentLanguage", "Listing language", "Needed only for a marketplace not listed by eBay's defaults; else taken from the marketplace", { required: false, placeholder: "en-US" }),
  field("currency", "Currency", "The currency of the prices; by default the product's, else the marketplace's", { required: false, placeholder: "USD" }),
  field("condition", "Condition", "eBay's item condition", { required: false, placeholder: "NEW" }),
];
