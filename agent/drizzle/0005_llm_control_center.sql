CREATE TABLE `ai_usage_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`model` text NOT NULL,
	`provider_name` text NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`day` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ai_usage_events_day_idx` ON `ai_usage_events` (`day`);--> statement-breakpoint
CREATE INDEX `ai_usage_events_user_day_idx` ON `ai_usage_events` (`user_id`,`day`);--> statement-breakpoint
CREATE TABLE `llm_conversations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`title` text NOT NULL,
	`model` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `llm_conversations_user_idx` ON `llm_conversations` (`user_id`,`updated_at`);--> statement-breakpoint
CREATE TABLE `llm_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`conversation_id` integer NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`model` text,
	`provider_name` text,
	`status` text DEFAULT 'complete' NOT NULL,
	`prompt_tokens` integer,
	`completion_tokens` integer,
	`tokens_per_second` real,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `llm_conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `llm_messages_conversation_idx` ON `llm_messages` (`conversation_id`,`id`);--> statement-breakpoint
CREATE TABLE `llm_providers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`base_url` text,
	`api_key_sealed` text,
	`local` integer NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`priority` integer DEFAULT 100 NOT NULL,
	`built_in` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `llm_providers_name_unique` ON `llm_providers` (`name`);--> statement-breakpoint
CREATE TABLE `llm_router_rules` (
	`task` text PRIMARY KEY NOT NULL,
	`targets` text NOT NULL,
	`strategy` text NOT NULL,
	`timeout_ms` integer NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`updated_at` integer NOT NULL
);
