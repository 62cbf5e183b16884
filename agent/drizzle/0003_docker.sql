CREATE TABLE `docker_deployments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`stack` text NOT NULL,
	`action` text NOT NULL,
	`catalog_app` text,
	`user_id` integer,
	`user_name` text NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`result` text NOT NULL,
	`message` text,
	`outcome` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `docker_deployments_stack_idx` ON `docker_deployments` (`stack`);--> statement-breakpoint
CREATE INDEX `docker_deployments_started_idx` ON `docker_deployments` (`started_at`);--> statement-breakpoint
CREATE TABLE `docker_stacks` (
	`name` text PRIMARY KEY NOT NULL,
	`compose` text NOT NULL,
	`variables_sealed` text NOT NULL,
	`catalog_app` text,
	`created_by` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
