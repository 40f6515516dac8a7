CREATE TABLE `sign_in_failures` (
	`id` text PRIMARY KEY NOT NULL,
	`account` text NOT NULL,
	`address` text NOT NULL,
	`at` integer NOT NULL,
	`counts_for_account` integer DEFAULT 1 NOT NULL,
	`counts_for_pair` integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sign_in_failures_account_idx` ON `sign_in_failures` (`account`,`at`);--> statement-breakpoint
CREATE INDEX `sign_in_failures_address_idx` ON `sign_in_failures` (`address`,`at`);--> statement-breakpoint
CREATE INDEX `sign_in_failures_at_idx` ON `sign_in_failures` (`at`);