// add-destination: a store an operator already holds credentials for (on the channels whose
// definition has an `operatorAccount`: a Shopify custom app's Admin API token, WooCommerce REST
// keys), without the merchant's OAuth round trip. The secret comes on stdin, never on the command
// line (where `ps` and shell history would show it); it is tried on the store before it is
// sealed with CREDENTIALS_KEYS and kept.
import { CHANNEL_DEFINITIONS, createChannelRegistry } from "@catalog/channels";
import { connectDestination, findOrg, parseKeyring } from "@catalog/db";
import { UsageError, required, type Command } from "./commands-kit.js";

const CHECK_TIMEOUT_MS = 30_000;

const operated = CHANNEL_DEFINITIONS.flatMap((d) =>
  d.operatorAccount
    ? [{ name: d.name, flags: d.operatorAccount.flags, secret: d.operatorAccount.secret }]
    : [],
);
const others = CHANNEL_DEFINITIONS.filter((d) => !d.operatorAccount && d.connect !== undefined).map(
  (d) => d.displayName,
);

export const addDestination: Command = {
  usage: operated
    .map(
      (o) =>
        `add-destination --org <id or name> --channel ${o.name} ${Object.entries(o.flags)
          .map(([flag, holds]) => `--${flag} ${holds}`)
          .join(" ")}  (${o.secret} on stdin)`,
    )
    .join("\n  "),
  async run(db, flags, readSecret, config) {
    if (!config.CREDENTIALS_KEYS)
      throw new UsageError(
        "add-destination needs CREDENTIALS_KEYS in the environment (the same keys as the gateway and the publish workers)",
      );
    const keyring = parseKeyring(config.CREDENTIALS_KEYS);
    const org = await findOrg(db, required(flags, "org"));
    const channel = required(flags, "channel");
    const found = operated.find((o) => o.name === channel);
    if (!found) {
      throw new UsageError(
        `--channel must be ${operated.map((o) => o.name).join(" or ")} (${others.filter((n) => !operated.some((o) => o.name === n.toLowerCase())).join(" and ")} connect through /api/integrations/<channel>/connect), not "${channel}"`,
      );
    }
    const given = Object.fromEntries(
      Object.keys(found.flags).map((flag) => [flag, required(flags, flag)]),
    );
    const operator = createChannelRegistry(config.channels, {
      timeoutMs: CHECK_TIMEOUT_MS,
    }).channel(found.name).operatorAccount!;
    const account = await operator.create(
      given,
      await readSecret(),
      AbortSignal.timeout(CHECK_TIMEOUT_MS),
    );
    const { destination, reconnected } = await connectDestination(db, keyring, {
      orgId: org.id,
      channel: found.name,
      ...account,
    });
    return {
      text: `${reconnected ? "Replaced the credentials of" : "Added"} ${channel} destination "${destination.name}" (${destination.id}) in org "${org.name}"`,
      json: { destination, reconnected },
    };
  },
};
