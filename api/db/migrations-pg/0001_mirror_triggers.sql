-- Hand-written, as SQLite's 0003_mirrors_time_zone.sql (sync/SPEC.md L12): each write of a mirrored column
-- of `users` or `subcontractor_assignments` takes a fresh company version, and a deletion leaves a tombstone
-- at one. The same outcome as SQLite's AFTER triggers; a BEFORE trigger stamps the row it is writing.
-- `npm run db:copy` sets sitecommand.copying in its transaction: copied rows keep the versions they have.
CREATE FUNCTION mirror_sync_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('sitecommand.copying', true) = 'on' THEN
    RETURN NEW;
  END IF;
  UPDATE companies SET last_version = last_version + 1 WHERE id = NEW.company_id
    RETURNING last_version INTO NEW.version;
  IF TG_OP = 'INSERT' THEN
    DELETE FROM sync_tombstones WHERE table_name = TG_TABLE_NAME AND row_id = NEW.id;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE FUNCTION mirror_sync_tombstone() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE v bigint;
BEGIN
  IF current_setting('sitecommand.copying', true) = 'on' THEN
    RETURN OLD;
  END IF;
  UPDATE companies SET last_version = last_version + 1 WHERE id = OLD.company_id RETURNING last_version INTO v;
  -- A company being deleted takes its rows with it: nothing is left to tell (as in SQLite).
  IF v IS NOT NULL THEN
    INSERT INTO sync_tombstones (table_name, row_id, company_id, version, deleted_at)
      VALUES (TG_TABLE_NAME, OLD.id, OLD.company_id, v,
        to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      ON CONFLICT (table_name, row_id) DO UPDATE
        SET company_id = EXCLUDED.company_id, version = EXCLUDED.version, deleted_at = EXCLUDED.deleted_at;
  END IF;
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER users_sync_insert BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION mirror_sync_stamp();--> statement-breakpoint
CREATE TRIGGER users_sync_update BEFORE UPDATE OF email, first_name, last_name, name, role, is_active,
  profile_image_url, company_id ON users FOR EACH ROW EXECUTE FUNCTION mirror_sync_stamp();--> statement-breakpoint
CREATE TRIGGER users_sync_delete AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION mirror_sync_tombstone();--> statement-breakpoint
CREATE TRIGGER subcontractor_assignments_sync_insert BEFORE INSERT ON subcontractor_assignments
  FOR EACH ROW EXECUTE FUNCTION mirror_sync_stamp();--> statement-breakpoint
CREATE TRIGGER subcontractor_assignments_sync_update BEFORE UPDATE OF subcontractor_id, project_id, company_id,
  assigned_by, start_date, end_date, specialization, status ON subcontractor_assignments
  FOR EACH ROW EXECUTE FUNCTION mirror_sync_stamp();--> statement-breakpoint
CREATE TRIGGER subcontractor_assignments_sync_delete AFTER DELETE ON subcontractor_assignments
  FOR EACH ROW EXECUTE FUNCTION mirror_sync_tombstone();
--> statement-breakpoint
-- SQLite's query builder writes NULL for an autoincrement key left out of an insert, which SQLite reads as
-- "the next key"; here the identity's sequence gives it (NOT NULL is checked after BEFORE triggers).
CREATE FUNCTION fill_identity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.id IS NULL THEN
    NEW.id := nextval(pg_get_serial_sequence(TG_TABLE_NAME, 'id'));
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER roles_fill_id BEFORE INSERT ON roles FOR EACH ROW EXECUTE FUNCTION fill_identity();--> statement-breakpoint
CREATE TRIGGER permissions_fill_id BEFORE INSERT ON permissions FOR EACH ROW EXECUTE FUNCTION fill_identity();
