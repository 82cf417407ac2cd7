-- Announce product changes once per statement and org instead of once per row. A bulk import
-- wrote 100,000 rows and so ran the plpgsql function and pg_notify 100,000 times (folded into
-- one notification per org on commit anyway). A statement-level trigger reads the statement's
-- transition table and notifies each org it touched once: same channel, same payload
-- ('products:<org_id>'), same delivery on commit. Transition tables need one trigger per event.

CREATE OR REPLACE FUNCTION notify_products_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  org text;
BEGIN
  FOR org IN SELECT DISTINCT org_id::text FROM changed_products LOOP
    PERFORM pg_notify('catalog_changes', 'products:' || org);
  END LOOP;
  RETURN NULL;
END
$$;

DROP TRIGGER products_changed ON "products";

CREATE TRIGGER products_inserted
  AFTER INSERT ON "products"
  REFERENCING NEW TABLE AS changed_products
  FOR EACH STATEMENT EXECUTE FUNCTION notify_products_changed();

CREATE TRIGGER products_updated
  AFTER UPDATE ON "products"
  REFERENCING NEW TABLE AS changed_products
  FOR EACH STATEMENT EXECUTE FUNCTION notify_products_changed();

CREATE TRIGGER products_deleted
  AFTER DELETE ON "products"
  REFERENCING OLD TABLE AS changed_products
  FOR EACH STATEMENT EXECUTE FUNCTION notify_products_changed();
