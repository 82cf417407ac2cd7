import { field, type ChannelField } from "../channel-fields.js";

export const ETSY_CONNECT_FIELDS: ChannelField[] = [];

// What checkEtsySettings requires (the first three) and the optional values it checks. A test
// checks that the required ones match the check.
export const ETSY_SETTINGS_FIELDS: ChannelField[] = [
  field("shopId", "Shop id", "Your Etsy shop's numeric id: set when the shop is connected"),
  field("taxonomyId", "Taxonomy id", "The Etsy category (taxonomy node) of the listings, a number", { placeholder: "1633" }),
  field("readinessStateId", "Processing profile id", "The id of the shop's processing profile (how long orders take to ship)"),
  field("whoMade", "Who made it", "i_did, someone_else or collective (default i_did)", { required: false, placeholder: "i_did" }),
  field("whenMade", "When it was made", "One of Etsy's periods (default made_to_order)", { required: false, placeholder: "made_to_order" }),
  field("shippingProfileId", "Shipping profile id", "The id of the shop's shipping profile, if the listings need one", { required: false }),
];
