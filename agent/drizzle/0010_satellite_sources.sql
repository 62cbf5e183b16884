PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_satellites` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source` text DEFAULT 'nexus' NOT NULL,
	`external_id` text,
	`host` text,
	`port` integer,
	`name` text NOT NULL,
	`room` text,
	`token_hash` text,
	`active_wake_word` text,
	`signal_strength` integer,
	`reported_status` text,
	`ip_address` text,
	`firmware_version` text,
	`muted` integer DEFAULT false NOT NULL,
	`model` text,
	`manufacturer` text,
	`last_seen_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
-- The old table had no source, address, model or manufacturer: every existing satellite is a Nexus-API one.
INSERT INTO `__new_satellites`("id", "source", "name", "room", "token_hash", "active_wake_word", "signal_strength", "reported_status", "ip_address", "firmware_version", "last_seen_at", "created_at", "updated_at") SELECT "id", 'nexus', "name", "room", "token_hash", "active_wake_word", "signal_strength", "reported_status", "ip_address", "firmware_version", "last_seen_at", "created_at", "updated_at" FROM `satellites`;--> statement-breakpoint
DROP TABLE `satellites`;--> statement-breakpoint
ALTER TABLE `__new_satellites` RENAME TO `satellites`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `satellites_token_hash_unique` ON `satellites` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `satellites_source_external_unique` ON `satellites` (`source`,`external_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `satellites_wyoming_address_unique` ON `satellites` (`host`,`port`);
--> statement-breakpoint
CREATE TABLE `satellite_signal_samples` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`satellite_id` integer NOT NULL,
	`at` integer NOT NULL,
	`dbm` integer NOT NULL,
	FOREIGN KEY (`satellite_id`) REFERENCES `satellites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `satellite_signal_samples_satellite_at_idx` ON `satellite_signal_samples` (`satellite_id`,`at`);
