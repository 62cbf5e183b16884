CREATE TABLE `vpn_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`kind` text NOT NULL,
	`from` text,
	`to` text,
	`detail` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `vpn_uplinks` (
	`role` text PRIMARY KEY NOT NULL,
	`config_sealed` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `wg_peers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`public_key` text NOT NULL,
	`private_key_sealed` text,
	`preshared_key_sealed` text NOT NULL,
	`address` text NOT NULL,
	`client_allowed_ips` text NOT NULL,
	`keepalive` integer,
	`enabled` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `wg_peers_public_key_unique` ON `wg_peers` (`public_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `wg_peers_address_unique` ON `wg_peers` (`address`);--> statement-breakpoint
CREATE TABLE `wg_server` (
	`id` integer PRIMARY KEY NOT NULL,
	`interface` text NOT NULL,
	`listen_port` integer NOT NULL,
	`address` text NOT NULL,
	`endpoint` text NOT NULL,
	`enabled` integer NOT NULL,
	`dns` text,
	`private_key_sealed` text NOT NULL,
	`public_key` text NOT NULL,
	`updated_at` integer NOT NULL
);
