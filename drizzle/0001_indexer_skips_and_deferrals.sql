CREATE TABLE "indexer_deferrals" (
	"signature" text PRIMARY KEY NOT NULL,
	"program_id" text NOT NULL,
	"reason" text NOT NULL,
	"attempts" integer NOT NULL,
	"first_deferred_at" timestamp (3) with time zone NOT NULL,
	"last_deferred_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "indexer_skips" (
	"signature" text PRIMARY KEY NOT NULL,
	"program_id" text NOT NULL,
	"slot" bigint NOT NULL,
	"reason" text NOT NULL,
	"recorded_at" timestamp (3) with time zone NOT NULL
);
