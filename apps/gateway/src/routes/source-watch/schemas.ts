import { Type } from "typebox";
import { WatchSchedule } from "../../schemas/watch.js";

export const WatchParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const WatchBodySchema = Type.Object(
  {
    schedule: Type.Union([WatchSchedule, Type.Null()], {
      description: "hourly, daily or weekly; null stops watching",
    }),
  },
  { additionalProperties: false },
);

export const CheckQueuedSchema = Type.Object({ queued: Type.Literal(true) });
