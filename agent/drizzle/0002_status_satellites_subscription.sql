CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `ai_usage` (
	`user_id` integer NOT NULL,
	`month` text NOT NULL,
	`ai_messages` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `month`)
);
--> statement-breakpoint
CREATE INDEX `ai_usage_month_idx` ON `ai_usage` (`month`);--> statement-breakpoint
CREATE TABLE `subscription` (
	`id` integer PRIMARY KEY NOT NULL,
	`plan` text DEFAULT 'free' NOT NULL,
	`paid_until` integer,
	`trial_plan` text NOT NULL,
	`trial_started_at` integer NOT NULL,
	`trial_ends_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `satellites` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`room` text,
	`token_hash` text NOT NULL,
	`active_wake_word` text,
	`signal_strength` integer,
	`reported_status` text,
	`ip_address` text,
	`firmware_version` text,
	`last_seen_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `satellites_token_hash_unique` ON `satellites` (`token_hash`);