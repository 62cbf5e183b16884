CREATE TABLE `flow_api_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`flow_ids` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `flow_api_keys_hash_unique` ON `flow_api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `flow_api_keys_user_idx` ON `flow_api_keys` (`user_id`);--> statement-breakpoint
CREATE TABLE `flow_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`flow_id` integer NOT NULL,
	`flow_version` integer NOT NULL,
	`trigger` text NOT NULL,
	`status` text NOT NULL,
	`input` text NOT NULL,
	`stages` text NOT NULL,
	`error` text,
	`clip_file` text,
	`transcript` text,
	`retry_of` integer,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`duration_ms` integer,
	FOREIGN KEY (`flow_id`) REFERENCES `flows`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `flow_runs_flow_idx` ON `flow_runs` (`flow_id`,`id`);--> statement-breakpoint
CREATE TABLE `flow_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`flow_id` integer NOT NULL,
	`version` integer NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`trigger` text NOT NULL,
	`stages` text NOT NULL,
	`secrets_sealed` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`flow_id`) REFERENCES `flows`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `flow_versions_flow_version_unique` ON `flow_versions` (`flow_id`,`version`);--> statement-breakpoint
CREATE TABLE `flows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`trigger` text NOT NULL,
	`stages` text NOT NULL,
	`secrets_sealed` text,
	`webhook_secret_sealed` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `flows_owner_idx` ON `flows` (`owner_id`);