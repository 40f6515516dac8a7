ALTER TABLE `change_orders` ADD `version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `change_orders` ADD `deleted_at` text;--> statement-breakpoint
ALTER TABLE `change_orders` ADD `field_meta` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `change_orders` ADD `updated_by` text;--> statement-breakpoint
CREATE INDEX `change_orders_company_version_idx` ON `change_orders` (`company_id`,`version`);--> statement-breakpoint
ALTER TABLE `communications` ADD `version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `communications` ADD `deleted_at` text;--> statement-breakpoint
ALTER TABLE `communications` ADD `field_meta` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `communications` ADD `updated_by` text;--> statement-breakpoint
CREATE INDEX `communications_company_version_idx` ON `communications` (`company_id`,`version`);--> statement-breakpoint
-- Rows written before they were mirrored get a version each (sync/SPEC.md W15), so a pull sends them.
UPDATE `communications` SET `version` = n.v FROM (
  SELECT x.id, c.last_version + ROW_NUMBER() OVER (PARTITION BY x.company_id ORDER BY x.created_at, x.id) AS v
  FROM `communications` x JOIN `companies` c ON c.id = x.company_id
) n WHERE `communications`.id = n.id AND `communications`.`version` = 0;--> statement-breakpoint
UPDATE `companies` SET `last_version` = MAX(`last_version`, (SELECT COALESCE(MAX(`version`), 0) FROM `communications` WHERE company_id = companies.id));--> statement-breakpoint
UPDATE `change_orders` SET `version` = n.v FROM (
  SELECT x.id, c.last_version + ROW_NUMBER() OVER (PARTITION BY x.company_id ORDER BY x.created_at, x.id) AS v
  FROM `change_orders` x JOIN `companies` c ON c.id = x.company_id
) n WHERE `change_orders`.id = n.id AND `change_orders`.`version` = 0;--> statement-breakpoint
UPDATE `companies` SET `last_version` = MAX(`last_version`, (SELECT COALESCE(MAX(`version`), 0) FROM `change_orders` WHERE company_id = companies.id));
