// The channel list is the one list: the database's Channel enum must hold exactly its names (a
// channel added to the list without its enum value and migration could not be stored).
import { readFileSync } from "node:fs";
import { CHANNEL_DEFINITIONS, CHANNEL_NAMES } from "../src/index.js";
import { CHANNEL_STANDINS } from "../src/standins/index.js";

const schema = readFileSync(new URL("../../../prisma/schema.prisma", import.meta.url), "utf8");

test("the Prisma Channel enum holds exactly the channel names, and the list one definition per name", () => {
  const body = /enum Channel \{([^}]*)\}/.exec(schema)?.[1];
  expect(body).toBeDefined();
  const values = body!
    .split("\n")
    .map((line) => line.replace(/\/\/.*/, "").trim())
    .filter(Boolean);
  expect([...values].sort()).toEqual([...CHANNEL_NAMES].sort());
  expect(CHANNEL_DEFINITIONS.map((d) => d.name)).toEqual([...CHANNEL_NAMES]);
});

test("every channel a merchant connects has a stand-in, and every stand-in a channel", () => {
  const connectable = CHANNEL_DEFINITIONS.filter((d) => d.connect !== undefined).map((d) => d.name);
  expect(CHANNEL_STANDINS.map((s) => s.channel)).toEqual(connectable);
});
