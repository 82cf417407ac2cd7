-- The dead publishes (the dead-letter queue) get the two partial indexes the pending ones have
-- (issue 32). After a Redis loss the recovery gives every dead publish its dead-letter job again
-- in id order; through (status, lease_until) each page read and sorted every dead publish, and
-- dead publishes are kept until an operator replays or discards them. Every interval it reads
-- those whose confirmation ran out, in (lease_until, id) order. (status, lease_until) served only
-- those two passes, and its pending half is sync_logs_pending_lease_idx, so it goes: one index
-- entry fewer on every write of a sync log.
--
-- Migrations run as one transaction, so CREATE INDEX here blocks writes to sync_logs while it
-- builds. On a large deployed table, build them first by hand without blocking writes, with the
-- same names (this migration then finds them and skips them):
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS "sync_logs_dead_id_idx" ON "sync_logs"("id") WHERE (status = 'dead');
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS "sync_logs_dead_lease_idx" ON "sync_logs"("lease_until", "id") WHERE (status = 'dead');

-- DropIndex
DROP INDEX IF EXISTS "sync_logs_status_lease_until_idx";

-- CreateIndex
CREATE INDEX IF NOT EXISTS "sync_logs_dead_id_idx" ON "sync_logs"("id") WHERE (status = 'dead');

-- CreateIndex
CREATE INDEX IF NOT EXISTS "sync_logs_dead_lease_idx" ON "sync_logs"("lease_until", "id") WHERE (status = 'dead');
