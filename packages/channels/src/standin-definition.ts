// The generic stand-in channel: destinations an operator adds (the demo, the benchmarks), with no
// connect flow, no variables and no settings but an optional default currency.
import { Type } from "typebox";
import { defineChannel } from "./channel-definition.js";
import { productPreflight } from "./preflight.js";
import { createStandinAdapter, standinProductProblems } from "./standin-adapter.js";

export const standinDefinition = defineChannel({
  name: "standin",
  // Merchants see this name beside a store an operator added for trying things out.
  displayName: "Test channel",
  env: Type.Object({}),
  app: () => ({}),
  settings: Type.Object({
    currency: Type.Optional(
      Type.String({
        pattern: "^[A-Za-z]{3}$",
        title: "Currency",
        description: "The currency of prices given without one",
        examples: ["EUR"],
      }),
    ),
  }),
  connectQuery: Type.Object({}),
  callbackQuery: Type.Object({}),
  adapter: ({ timeoutMs }) => createStandinAdapter({ timeoutMs }),
  preflight: productPreflight(standinProductProblems),
});
