import {
  ROLE_DUTIES,
  ROLES,
  createApiKey,
  createOrg,
  createUser,
  findOrg,
  isRole,
  parseKeyring,
  revokeApiKey,
  seedDemo,
  type Role,
} from "@catalog/db";
import { addDestination } from "./add-destination.js";
import { retention } from "./retention.js";
import { UsageError, required, type Command, type Flags } from "./commands-kit.js";

// The only way to make an owner or a platform operator (admin): no HTTP route creates or
// promotes users.
function role(flags: Flags): Role {
  const value = flags.role ?? "member";
  if (!isRole(value))
    throw new UsageError(
      `--role must be one of ${ROLES.join(", ")} (admin is the platform operator), not "${String(value)}"`,
    );
  return value;
}

export const COMMANDS: Record<string, Command> = {
  "create-org": {
    usage: "create-org --name <name>",
    async run(db, flags) {
      const org = await createOrg(db, required(flags, "name"));
      return { text: `Created org "${org.name}" (${org.id})`, json: org };
    },
  },
  "create-user": {
    usage:
      `create-user --org <id or name> --email <email> [--role ${ROLES.join("|")}] (--password <p> | --password-stdin)\n` +
      ROLES.map((r) => `      ${r.padEnd(7)} ${ROLE_DUTIES[r]}`).join("\n"),
    async run(db, flags, readSecret) {
      const userRole = role(flags);
      const org = await findOrg(db, required(flags, "org"));
      const password = flags["password-stdin"] ? await readSecret() : required(flags, "password");
      const user = await createUser(db, {
        orgId: org.id,
        email: required(flags, "email"),
        password,
        role: userRole,
      });
      return {
        text: `Created ${user.role} ${user.email} (${user.id}) in org "${org.name}"`,
        json: user,
      };
    },
  },
  "create-api-key": {
    usage: "create-api-key --org <id or name> [--name <label>]",
    async run(db, flags) {
      const org = await findOrg(db, required(flags, "org"));
      const key = await createApiKey(
        db,
        org.id,
        typeof flags.name === "string" ? flags.name : "extension",
      );
      return {
        text: `Created API key "${key.name}" (${key.id}) for org "${org.name}". It is shown only this once:\n${key.key}`,
        json: { ...key, orgId: org.id },
      };
    },
  },
  "revoke-api-key": {
    usage: "revoke-api-key --org <id or name> --id <key id>",
    async run(db, flags) {
      const org = await findOrg(db, required(flags, "org"));
      const id = required(flags, "id");
      await revokeApiKey(db, org.id, id);
      return { text: `Revoked API key ${id}`, json: { id, revoked: true } };
    },
  },
  "add-destination": addDestination,
  retention,
  "seed-demo": {
    usage:
      "seed-demo [--standin-url URL]  (with a stand-in URL, CREDENTIALS_KEYS seals the demo destination's token)",
    async run(db, flags, _readSecret, config) {
      const standinUrl = flags["standin-url"];
      if (standinUrl !== undefined && typeof standinUrl !== "string")
        throw new UsageError("--standin-url needs a URL");
      const keys = config.CREDENTIALS_KEYS;
      if (standinUrl && !keys)
        throw new UsageError("--standin-url needs CREDENTIALS_KEYS in the environment");
      const seed = await seedDemo(
        db,
        standinUrl ? { keyring: parseKeyring(keys), standinUrl } : undefined,
      );
      const lines = [
        `Demo org "${seed.org.name}" (${seed.org.id})`,
        ...seed.users.map(
          (u) =>
            `  ${u.role.padEnd(7)} ${u.email}  password: ${u.password}  (${ROLE_DUTIES[u.role]})`,
        ),
        `  extension API key (x-service-api-key): ${seed.apiKey.key}`,
        ...(seed.destination
          ? [
              `  destination "${seed.destination.name}" (${seed.destination.id}) on ${seed.destination.baseUrl}`,
            ]
          : []),
      ];
      return { text: lines.join("\n"), json: seed };
    },
  },
};
