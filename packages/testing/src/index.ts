export { createTestDatabase, dropTestDatabase } from "./test-database.js";
export { newRedisPrefix, deleteRedisPrefix } from "./redis-prefix.js";
export {
  createTestOrg,
  makeProduct,
  userWithExpiredSession,
  type TestOrg,
  type TestUser,
} from "./factories.js";
export { startFixtureServer, type FixturePage } from "./fixture-server.js";
export { eventually } from "./eventually.js";
export { freePort, freePorts } from "./free-port.js";
export { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "./otlp-receiver.js";
export { meetOnRows, withApplicationName, type RowMeeting } from "./row-meeting.js";
export { startPrivatePostgres, type PrivatePostgres } from "./private-postgres.js";
export { startPrivateRedis } from "./private-redis.js";
