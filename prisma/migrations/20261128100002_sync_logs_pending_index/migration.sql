-- The publishes still to do (queued or running), in id order (issue 32). The recovery reads them
-- a page at a time (`id > $after ORDER BY id LIMIT 1000`) and the workers start and lock theirs
-- by id; without this index a planner that expects few pending rows read every pending row for
-- each page and sorted them, so a pass over a million pending publishes grew with their square.
--
-- Migrations run as one transaction, so CREATE INDEX here blocks writes to sync_logs while it
-- builds. On a large deployed table, build it first by hand without blocking writes, with the
-- same name (this migration then finds it and skips it):
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS "sync_logs_pending_id_idx" ON "sync_logs"("id") WHERE (status IN ('queued', 'running'));

-- CreateIndex
CREATE INDEX IF NOT EXISTS "sync_logs_pending_id_idx" ON "sync_logs"("id") WHERE (status IN ('queued', 'running'));
