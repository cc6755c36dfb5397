CREATE TABLE `charge_holds` (
	`id` text PRIMARY KEY NOT NULL,
	`key_id` integer NOT NULL,
	`period` text NOT NULL,
	`charged` integer NOT NULL,
	`delivered` integer DEFAULT 0 NOT NULL,
	`owner` text NOT NULL,
	`lease_until` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE no action
);
