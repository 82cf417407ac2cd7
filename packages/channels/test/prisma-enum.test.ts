// The channel list is the one list: the database's Channel enum must hold exactly its names (a
// channel added to the list without its enum value and migration could not be stored).
import { readFileSync } from "node:fs";
import { CHANNEL_DEFINITIONS } from "../src/index.js";
import { CHANNEL_STANDINS } from "../src/standins/index.js";

const schema = readFileSync(new URL("../../../prisma/schema.prisma", import.meta.url), "utf8");

test("the Prisma Channel enum holds exactly the channels of the list", () => {
  const body = /enum Channel \{([^}]*)\}/.exec(schema)?.[1];
  expect(body).toBeDefined();
  const values = body!.split("\n").map((line) => line.replace(/\/\/.*/, "").trim()).filter(Boolean);
  expect([...values].sort()).toEqual(CHANNEL_DEFINITIONS.map((d) => d.name).sort());
});

test("every channel a merchant connects has a stand-in, and every stand-in a channel", () => {
  const connectable = CHANNEL_DEFINITIONS.filter((d) => d.connect !== undefined).map((d) => d.name);
  expect(CHANNEL_STANDINS.map((s) => s.channel)).toEqual(connectable);
});
