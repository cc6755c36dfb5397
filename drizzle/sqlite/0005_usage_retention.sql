CREATE TABLE `usage_totals` (
	`key_id` integer NOT NULL,
	`period` text NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`words` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`key_id`, `period`),
	FOREIGN KEY (`key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `idempotency_records` ADD `key_id` integer;--> statement-breakpoint
CREATE INDEX `idempotency_records_key_expires` ON `idempotency_records` (`key_id`,`expires_at`);