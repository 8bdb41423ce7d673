CREATE TABLE "indexer_runs" (
	"program_id" text PRIMARY KEY NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone NOT NULL,
	"outcome" text NOT NULL,
	"processed" integer NOT NULL,
	"deferred" integer NOT NULL,
	"recorded_skips" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"error" text,
	"caught_up_slot" bigint,
	"caught_up_at" timestamp (3) with time zone
);
