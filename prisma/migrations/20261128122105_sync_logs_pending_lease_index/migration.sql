-- The publishes still to do (queued or running) by when their lease runs out (issue 32). Every
-- interval the recovery re-enqueues those whose lease ran out, a page at a time
-- (`lease_until < now AND (lease_until, id) > $after ORDER BY lease_until, id LIMIT 1000`). Walked
-- through sync_logs_pending_id_idx it read every pending row to find them: 0.8 s each pass with
-- 500,000 publishes waiting and 20 expired.
--
-- Migrations run as one transaction, so CREATE INDEX here blocks writes to sync_logs while it
-- builds. On a large deployed table, build it first by hand without blocking writes, with the
-- same name (this migration then finds it and skips it):
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS "sync_logs_pending_lease_idx" ON "sync_logs"("lease_until", "id") WHERE (status IN ('queued', 'running'));

-- CreateIndex
CREATE INDEX IF NOT EXISTS "sync_logs_pending_lease_idx" ON "sync_logs"("lease_until", "id") WHERE (status IN ('queued', 'running'));
