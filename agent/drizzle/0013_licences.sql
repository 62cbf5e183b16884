CREATE TABLE `licences` (
	`lid` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`plan` text NOT NULL,
	`hub_id` text NOT NULL,
	`issued_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`not_before` integer,
	`seats` integer,
	`activated_at` integer NOT NULL,
	`deactivated_at` integer
);
--> statement-breakpoint
ALTER TABLE `ai_usage_events` ADD `model_class` text DEFAULT 'local' NOT NULL;