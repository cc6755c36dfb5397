CREATE TABLE `calibrations` (
	`id` text PRIMARY KEY NOT NULL,
	`key_id` integer NOT NULL,
	`name` text NOT NULL,
	`model_version` text NOT NULL,
	`created_at` integer NOT NULL,
	`summary` text NOT NULL,
	`profile` text NOT NULL,
	FOREIGN KEY (`key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `calibrations_key_created` ON `calibrations` (`key_id`,`created_at`);