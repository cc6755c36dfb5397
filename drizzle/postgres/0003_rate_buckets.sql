CREATE TABLE "rate_buckets" (
	"key_id" integer NOT NULL,
	"bucket" text NOT NULL,
	"tat_ms" double precision NOT NULL,
	"granted" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_buckets_key_id_bucket_pk" PRIMARY KEY("key_id","bucket")
);
