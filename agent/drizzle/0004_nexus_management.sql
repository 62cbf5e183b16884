CREATE TABLE `hub_access_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`created_by` integer,
	`created_at` integer NOT NULL,
	`last_used_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hub_access_tokens_hash_unique` ON `hub_access_tokens` (`token_hash`);--> statement-breakpoint
CREATE TABLE `remote_hubs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`token_sealed` text NOT NULL,
	`last_result` text,
	`last_checked_at` integer,
	`last_seen_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `remote_hubs_url_unique` ON `remote_hubs` (`url`);