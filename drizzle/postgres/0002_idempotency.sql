CREATE TABLE "idempotency_records" (
	"id" text PRIMARY KEY NOT NULL,
	"body_check" text NOT NULL,
	"state" text NOT NULL,
	"answer" text,
	"locked_until" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "idempotency_records_expires" ON "idempotency_records" USING btree ("expires_at");