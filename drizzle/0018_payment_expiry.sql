CREATE TABLE "payment_payout_cursors" (
	"account" text PRIMARY KEY NOT NULL,
	"signature" text,
	"slot" bigint,
	"read_at" timestamp (3) with time zone NOT NULL,
	"open_until" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "payment_references_open_idx";--> statement-breakpoint
-- References issued before expiry existed get the default time to live (1,800 s) from their issue.
ALTER TABLE "payment_references" ADD COLUMN "expires_at" timestamp (3) with time zone;--> statement-breakpoint
UPDATE "payment_references" SET "expires_at" = "issued_at" + interval '1800 seconds';--> statement-breakpoint
ALTER TABLE "payment_references" ALTER COLUMN "expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_references" ADD COLUMN "rejected" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "payment_payout_cursors_open_idx" ON "payment_payout_cursors" USING btree ("open_until");--> statement-breakpoint
CREATE INDEX "payment_references_open_idx" ON "payment_references" USING btree ("status","expires_at");