-- What a failed publish needs before it can succeed (issue 34): the product's data, the store's
-- settings, the store's access, or only time (an outage a retry can change), with the field at
-- fault and the channel's words about it. Set by the publish worker on a final failure; rows
-- recorded before stay NULL and are read by their status (dead: temporary).
CREATE TYPE "SyncFailure" AS ENUM ('product', 'settings', 'access', 'temporary');

ALTER TABLE "sync_logs"
  ADD COLUMN "failure" "SyncFailure",
  ADD COLUMN "failure_field" TEXT,
  ADD COLUMN "failure_reason" TEXT;

-- When a store's settings or access last changed: a publish that failed on them earlier can then
-- be retried (and only then: a retry of an unchanged store fails the same way).
ALTER TABLE "destination_accounts" ADD COLUMN "fixed_at" TIMESTAMP(3);
