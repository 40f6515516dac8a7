CREATE TABLE `sync_clients` (
	`client_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`company_id` text NOT NULL,
	`last_mutation_id` integer DEFAULT 0 NOT NULL,
	`scope_hash` text,
	`created_at` text NOT NULL,
	`last_seen_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sync_clients_user_idx` ON `sync_clients` (`user_id`);--> statement-breakpoint
CREATE TABLE `sync_conflicts` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`table_name` text NOT NULL,
	`row_id` text NOT NULL,
	`field` text NOT NULL,
	`kept_value` text NOT NULL,
	`overwritten_value` text NOT NULL,
	`kept_client_id` text,
	`overwritten_client_id` text,
	`user_id` text,
	`mutation_id` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `sync_conflicts_row_idx` ON `sync_conflicts` (`company_id`,`table_name`,`row_id`);--> statement-breakpoint
CREATE INDEX `sync_conflicts_company_created_idx` ON `sync_conflicts` (`company_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `sync_horizons` (
	`company_id` text PRIMARY KEY NOT NULL,
	`min_version` integer DEFAULT 0 NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `sync_mutations` (
	`client_id` text NOT NULL,
	`mutation_id` integer NOT NULL,
	`result` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`client_id`, `mutation_id`),
	FOREIGN KEY (`client_id`) REFERENCES `sync_clients`(`client_id`) ON UPDATE no action ON DELETE cascade
);
