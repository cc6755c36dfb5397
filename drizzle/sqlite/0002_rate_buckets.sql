CREATE TABLE `rate_buckets` (
	`key_id` integer NOT NULL,
	`bucket` text NOT NULL,
	`tat_ms` real NOT NULL,
	`granted` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`key_id`, `bucket`)
);
