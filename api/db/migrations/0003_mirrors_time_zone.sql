CREATE TABLE `sync_tombstones` (
	`table_name` text NOT NULL,
	`row_id` text NOT NULL,
	`company_id` text NOT NULL,
	`version` integer NOT NULL,
	`deleted_at` text NOT NULL,
	PRIMARY KEY(`table_name`, `row_id`)
);
--> statement-breakpoint
CREATE INDEX `sync_tombstones_version_idx` ON `sync_tombstones` (`company_id`,`table_name`,`version`);--> statement-breakpoint
ALTER TABLE `companies` ADD `time_zone` text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `users_version_idx` ON `users` (`company_id`,`version`);--> statement-breakpoint
ALTER TABLE `subcontractor_assignments` ADD `version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `subcontractor_assignments_version_idx` ON `subcontractor_assignments` (`company_id`,`version`);--> statement-breakpoint
-- Hand-written below (sync/SPEC.md L12). Every user and assignment gets one new version, above every
-- cursor a device holds today, so devices that never had these mirrors receive them on their next pull.
UPDATE `companies` SET `last_version` = `last_version` + 1
  WHERE `id` IN (SELECT `company_id` FROM `users` UNION SELECT `company_id` FROM `subcontractor_assignments`);--> statement-breakpoint
UPDATE `users` SET `version` = (SELECT `last_version` FROM `companies` c WHERE c.`id` = `users`.`company_id`);--> statement-breakpoint
UPDATE `subcontractor_assignments` SET `version` =
  (SELECT `last_version` FROM `companies` c WHERE c.`id` = `subcontractor_assignments`.`company_id`);--> statement-breakpoint
-- Triggers rather than mutator code: users are written by the admin mutators, role changes, password
-- changes, the seeds and company deletion; each write of a mirrored column gets a fresh company version.
-- `UPDATE OF` lists only mirrored columns, so a password change or the version stamp itself sends nothing.
CREATE TRIGGER `users_sync_insert` AFTER INSERT ON `users` BEGIN
  UPDATE `companies` SET `last_version` = `last_version` + 1 WHERE `id` = NEW.`company_id`;
  UPDATE `users` SET `version` = (SELECT `last_version` FROM `companies` WHERE `id` = NEW.`company_id`)
    WHERE `id` = NEW.`id`;
  DELETE FROM `sync_tombstones` WHERE `table_name` = 'users' AND `row_id` = NEW.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `users_sync_update` AFTER UPDATE OF `email`, `first_name`, `last_name`, `name`, `role`, `is_active`, `profile_image_url`, `company_id` ON `users` BEGIN
  UPDATE `companies` SET `last_version` = `last_version` + 1 WHERE `id` = NEW.`company_id`;
  UPDATE `users` SET `version` = (SELECT `last_version` FROM `companies` WHERE `id` = NEW.`company_id`)
    WHERE `id` = NEW.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `users_sync_delete` AFTER DELETE ON `users` BEGIN
  UPDATE `companies` SET `last_version` = `last_version` + 1 WHERE `id` = OLD.`company_id`;
  INSERT OR REPLACE INTO `sync_tombstones` (`table_name`, `row_id`, `company_id`, `version`, `deleted_at`)
    SELECT 'users', OLD.`id`, OLD.`company_id`, `last_version`, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    FROM `companies` WHERE `id` = OLD.`company_id`;
END;--> statement-breakpoint
CREATE TRIGGER `subcontractor_assignments_sync_insert` AFTER INSERT ON `subcontractor_assignments` BEGIN
  UPDATE `companies` SET `last_version` = `last_version` + 1 WHERE `id` = NEW.`company_id`;
  UPDATE `subcontractor_assignments`
    SET `version` = (SELECT `last_version` FROM `companies` WHERE `id` = NEW.`company_id`) WHERE `id` = NEW.`id`;
  DELETE FROM `sync_tombstones` WHERE `table_name` = 'subcontractor_assignments' AND `row_id` = NEW.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `subcontractor_assignments_sync_update` AFTER UPDATE OF `subcontractor_id`, `project_id`, `company_id`, `assigned_by`, `start_date`, `end_date`, `specialization`, `status` ON `subcontractor_assignments` BEGIN
  UPDATE `companies` SET `last_version` = `last_version` + 1 WHERE `id` = NEW.`company_id`;
  UPDATE `subcontractor_assignments`
    SET `version` = (SELECT `last_version` FROM `companies` WHERE `id` = NEW.`company_id`) WHERE `id` = NEW.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `subcontractor_assignments_sync_delete` AFTER DELETE ON `subcontractor_assignments` BEGIN
  UPDATE `companies` SET `last_version` = `last_version` + 1 WHERE `id` = OLD.`company_id`;
  INSERT OR REPLACE INTO `sync_tombstones` (`table_name`, `row_id`, `company_id`, `version`, `deleted_at`)
    SELECT 'subcontractor_assignments', OLD.`id`, OLD.`company_id`, `last_version`,
      strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    FROM `companies` WHERE `id` = OLD.`company_id`;
END;
