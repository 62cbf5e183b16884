CREATE TABLE `analytics_entities` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`entity_id` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `analytics_entities_entity_id_unique` ON `analytics_entities` (`entity_id`);--> statement-breakpoint
-- WITHOUT ROWID is added by hand (drizzle-kit cannot say it): the (entity, at) key is the table,
-- which keeps a year of a home's changes about a third smaller.
CREATE TABLE `analytics_events` (
	`entity` integer NOT NULL,
	`at` integer NOT NULL,
	`state` integer NOT NULL,
	PRIMARY KEY(`entity`, `at`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `analytics_events_at` ON `analytics_events` (`at`);--> statement-breakpoint
CREATE TABLE `analytics_states` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `analytics_states_value_unique` ON `analytics_states` (`value`);--> statement-breakpoint
CREATE TABLE `analytics_suggestions` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`automation_id` text,
	`updated_at` integer NOT NULL
);
