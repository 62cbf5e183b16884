CREATE TABLE `wake_word_samples` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`wake_word_id` integer NOT NULL,
	`status` text NOT NULL,
	`source` text NOT NULL,
	`device` text NOT NULL,
	`speaker` text NOT NULL,
	`file` text NOT NULL,
	`original_sample_rate` integer NOT NULL,
	`original_channels` integer NOT NULL,
	`original_bits_per_sample` integer NOT NULL,
	`verdict` text NOT NULL,
	`snr_db` real,
	`quality` text NOT NULL,
	`deletion_token_hash` text,
	`uploaded_by` integer,
	`created_at` integer NOT NULL,
	`reviewed_at` integer,
	FOREIGN KEY (`wake_word_id`) REFERENCES `wake_words`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `wake_word_samples_wake_word_idx` ON `wake_word_samples` (`wake_word_id`,`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `wake_word_samples_deletion_token_unique` ON `wake_word_samples` (`deletion_token_hash`);--> statement-breakpoint
CREATE TABLE `wake_words` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`phrase` text NOT NULL,
	`slug` text NOT NULL,
	`language` text NOT NULL,
	`target_samples` integer NOT NULL,
	`crowdsourcing` integer NOT NULL,
	`created_by` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `wake_words_slug_unique` ON `wake_words` (`slug`);