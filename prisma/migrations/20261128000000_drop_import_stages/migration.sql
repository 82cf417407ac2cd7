-- Imports no longer stage their rows in tables of their own: they COPY on their transaction's
-- connection. Drop the staging tables a process that died left behind, named
-- import_stage_<second made>_<random>, once older than six hours, as imports did at their start
-- (a younger one may belong to an import an older process is still running).
DO $$
DECLARE stage text;
BEGIN
  FOR stage IN
    SELECT relname FROM pg_class
    WHERE relkind = 'r' AND relname ~ '^import_stage_[0-9]+_'
      AND substring(relname FROM '^import_stage_([0-9]+)_')::bigint < extract(epoch FROM now()) - 6 * 3600
  LOOP
    EXECUTE format('DROP TABLE IF EXISTS %I', stage);
  END LOOP;
END $$;
