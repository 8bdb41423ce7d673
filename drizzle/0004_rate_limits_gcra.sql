-- Fixed-window counters do not convert to GCRA state, and they last one window: start empty.
DELETE FROM "rate_limits";--> statement-breakpoint
ALTER TABLE "rate_limits" ADD COLUMN "tat" timestamp (6) with time zone NOT NULL;--> statement-breakpoint
ALTER TABLE "rate_limits" ADD COLUMN "seen_at" timestamp (6) with time zone NOT NULL;--> statement-breakpoint
ALTER TABLE "rate_limits" ADD COLUMN "period_ms" double precision NOT NULL;--> statement-breakpoint
ALTER TABLE "rate_limits" ADD COLUMN "lim" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "rate_limits" ADD COLUMN "granted" integer NOT NULL;--> statement-breakpoint
CREATE INDEX "rate_limits_tat_idx" ON "rate_limits" USING btree ("tat");--> statement-breakpoint
ALTER TABLE "rate_limits" DROP COLUMN "window_start";--> statement-breakpoint
ALTER TABLE "rate_limits" DROP COLUMN "count";