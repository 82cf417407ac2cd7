import { Type } from "typebox";

export const WatchSchedule = Type.Enum(["hourly", "daily", "weekly"], {
  description: "How often the product's page is fetched again",
});

/** A watched product's re-checks (source watch); null when the product is not watched. */
export const WatchSchema = Type.Union(
  [
    Type.Object({
      schedule: WatchSchedule,
      lastCheckedAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
      nextCheckAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
        description: "When the next scheduled check is due",
      }),
      lastChangedAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
        description: "When a check last found a new price, availability or quantity",
      }),
      lastResult: Type.Union([Type.String(), Type.Null()], {
        description:
          'What the last check found: the changes ("price 19.99 EUR -> 17.99 EUR"), "no change", "page gone (404)", ' +
          '"product no longer on the page", or why the page could not be read (nothing changed then)',
      }),
    }),
    Type.Null(),
  ],
  {
    description:
      "The source watch: the product's page is fetched again on this schedule, and a new price, availability or quantity updates the product (history actor: system, id `source-recheck`). null: not watched",
  },
);
