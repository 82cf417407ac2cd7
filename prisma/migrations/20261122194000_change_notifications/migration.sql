-- Announce committed changes to the catalog and to sessions, so that processes caching reads
-- (the gateway) can drop what changed, whoever made the change. NOTIFY is transactional: it is
-- delivered on commit, and identical payloads within one transaction are folded into one.

CREATE FUNCTION notify_products_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalog_changes', 'products:' || COALESCE(NEW.org_id, OLD.org_id)::text);
  RETURN NULL;
END
$$;

CREATE TRIGGER products_changed
  AFTER INSERT OR UPDATE OR DELETE ON "products"
  FOR EACH ROW EXECUTE FUNCTION notify_products_changed();

CREATE FUNCTION notify_sessions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalog_changes', 'sessions');
  RETURN NULL;
END
$$;

-- A new session needs no announcement; a revoked, expired or deleted one, or a changed or
-- removed user or org behind it, does.
CREATE TRIGGER sessions_changed
  AFTER UPDATE OR DELETE ON "sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_sessions_changed();

CREATE TRIGGER users_changed
  AFTER UPDATE OR DELETE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_sessions_changed();

CREATE TRIGGER orgs_changed
  AFTER UPDATE OR DELETE ON "orgs"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_sessions_changed();
