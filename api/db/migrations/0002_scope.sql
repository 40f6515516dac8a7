CREATE TABLE IF NOT EXISTS `object_uploads` (
	`key` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`user_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `object_uploads_company_idx` ON `object_uploads` (`company_id`);--> statement-breakpoint
DROP INDEX IF EXISTS `invoices_invoice_number_unique`;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS `invoices_company_number_idx` ON `invoices` (`company_id`,`invoice_number`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `photos_company_created_idx` ON `photos` (`company_id`,`created_at`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `photos_company_filename_idx` ON `photos` (`company_id`,`filename`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `project_logs_company_created_idx` ON `project_logs` (`company_id`,`created_at`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `tasks_company_due_idx` ON `tasks` (`company_id`,`due_date`,`id`);