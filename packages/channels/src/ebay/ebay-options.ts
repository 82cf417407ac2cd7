// The choices of an eBay store's settings, from the seller's own account: business policies
// (Account API, per marketplace), inventory locations (Inventory API) and category suggestions
// for typed words (Taxonomy API, in the marketplace's default category tree). Marketplaces are
// our own list. Requests go through the adapter's caller, so failures are the usual channel errors.
import { Type, type TSchema } from "typebox";
import type { DestinationTarget, SettingOption, SettingsOptionsInput } from "../adapter.js";
import { okAnswer } from "../channel-answer.js";
import { channelCaller, type Answer } from "../channel-http.js";
import { requiredBaseUrl, requiredString } from "../destination-fields.js";
import { MARKETPLACES } from "./ebay-settings.js";

const CHANNEL = "ebay";
/** The marketplace whose policies and categories are offered when the store has none yet. */
const DEFAULT_MARKETPLACE = "EBAY_US";
/** eBay's largest page of inventory locations. */
const LOCATION_LIMIT = 100;

const Named = { name: Type.Optional(Type.String()), description: Type.Optional(Type.String()) };
const policyList = (list: string, id: string) =>
  Type.Object({
    [list]: Type.Optional(Type.Array(Type.Object({ [id]: Type.String(), ...Named }))),
  });

/** The Account API's call, answer list and id field of each policy setting. */
const POLICIES: Record<string, { path: string; list: string; id: string; schema: TSchema }> = {
  paymentPolicyId: {
    path: "payment_policy",
    list: "paymentPolicies",
    id: "paymentPolicyId",
    schema: policyList("paymentPolicies", "paymentPolicyId"),
  },
  returnPolicyId: {
    path: "return_policy",
    list: "returnPolicies",
    id: "returnPolicyId",
    schema: policyList("returnPolicies", "returnPolicyId"),
  },
  fulfillmentPolicyId: {
    path: "fulfillment_policy",
    list: "fulfillmentPolicies",
    id: "fulfillmentPolicyId",
    schema: policyList("fulfillmentPolicies", "fulfillmentPolicyId"),
  },
};

const LocationAnswer = Type.Object({
  locations: Type.Optional(
    Type.Array(
      Type.Object({
        merchantLocationKey: Type.String(),
        name: Type.Optional(Type.String()),
        merchantLocationStatus: Type.Optional(Type.String()),
        location: Type.Optional(
          Type.Object({
            address: Type.Optional(
              Type.Object({
                city: Type.Optional(Type.String()),
                stateOrProvince: Type.Optional(Type.String()),
                country: Type.Optional(Type.String()),
              }),
            ),
          }),
        ),
      }),
    ),
  ),
});
const TreeAnswer = Type.Object({ categoryTreeId: Type.String() });
const Ancestor = Type.Object({ categoryName: Type.Optional(Type.String()) });
const SuggestionsAnswer = Type.Object({
  categorySuggestions: Type.Optional(
    Type.Array(
      Type.Object({
        category: Type.Object({ categoryId: Type.String(), categoryName: Type.String() }),
        categoryTreeNodeAncestors: Type.Optional(Type.Array(Ancestor)),
      }),
    ),
  ),
});

const marketplaceOf = (destination: DestinationTarget): string => {
  const set = destination.settings.marketplaceId;
  return typeof set === "string" && set.trim() ? set.trim() : DEFAULT_MARKETPLACE;
};

/** The marketplaces we know, by name. */
const marketplaces = (): SettingOption[] =>
  Object.entries(MARKETPLACES).map(([id, m]) => ({
    value: id,
    label: `${m.name} (${new URL(m.site).hostname.replace(/^www\./, "")})`,
    detail: `prices in ${m.currency}`,
  }));

export async function ebaySettingsOptions(
  input: SettingsOptionsInput,
  timeoutMs: number,
): Promise<SettingOption[]> {
  const { destination, field, query } = input;
  if (field === "marketplaceId") return marketplaces();
  const base = requiredBaseUrl(CHANNEL, destination);
  const token = requiredString(CHANNEL, destination, "accessToken");
  const call = channelCaller(CHANNEL, input.signal, timeoutMs);
  const get = (path: string): Promise<Answer> =>
    call({ method: "GET", url: `${base}${path}`, headers: { authorization: `Bearer ${token}` } });
  const marketplace = encodeURIComponent(marketplaceOf(destination));

  const policy = POLICIES[field];
  if (policy) {
    const answer = await get(`/sell/account/v1/${policy.path}?marketplace_id=${marketplace}`);
    const body = okAnswer(CHANNEL, answer, policy.schema, `${policy.path} list`) as Record<
      string,
      Array<Record<string, string | undefined>> | undefined
    >;
    return (body[policy.list] ?? []).map((p) => ({
      value: p[policy.id]!,
      label: p.name?.trim() || p[policy.id]!,
      detail: p.description?.trim() || null,
    }));
  }
  if (field === "merchantLocationKey") {
    const answer = await get(`/sell/inventory/v1/location?limit=${LOCATION_LIMIT}`);
    const { locations = [] } = okAnswer(CHANNEL, answer, LocationAnswer, "location list");
    return locations.map((l) => {
      const a = l.location?.address;
      const place = [a?.city, a?.stateOrProvince, a?.country].filter(Boolean).join(", ");
      const off = l.merchantLocationStatus === "DISABLED" ? "disabled" : "";
      return {
        value: l.merchantLocationKey,
        label: l.name?.trim() || l.merchantLocationKey,
        detail: [place, off].filter(Boolean).join(", ") || null,
      };
    });
  }
  if (field === "categoryId") {
    const tree = okAnswer(
      CHANNEL,
      await get(`/commerce/taxonomy/v1/get_default_category_tree_id?marketplace_id=${marketplace}`),
      TreeAnswer,
      "category tree",
    );
    const answer = await get(
      `/commerce/taxonomy/v1/category_tree/${encodeURIComponent(tree.categoryTreeId)}/get_category_suggestions?q=${encodeURIComponent(query)}`,
    );
    // 204: eBay has no suggestion for these words.
    if (answer.status === 204) return [];
    const { categorySuggestions = [] } = okAnswer(
      CHANNEL,
      answer,
      SuggestionsAnswer,
      "category suggestions",
    );
    return categorySuggestions.map((s) => ({
      value: s.category.categoryId,
      label: s.category.categoryName,
      // eBay lists the ancestors from the parent up: the path reads from the top.
      detail:
        (s.categoryTreeNodeAncestors ?? [])
          .map((a) => a.categoryName)
          .filter(Boolean)
          .reverse()
          .join(" > ") || null,
    }));
  }
  throw new Error(`ebay offers no choices for ${field}`);
}
