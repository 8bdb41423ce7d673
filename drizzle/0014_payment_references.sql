CREATE TABLE "payment_references" (
	"reference" text PRIMARY KEY NOT NULL,
	"tag" text NOT NULL,
	"recipient" text NOT NULL,
	"amount" text NOT NULL,
	"asset" text NOT NULL,
	"decimals" integer NOT NULL,
	"issued_at" timestamp (3) with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"signature" text,
	"slot" bigint,
	"payer" text,
	"paid_at" timestamp (3) with time zone,
	"reason" text,
	"checked_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE INDEX "payment_references_open_idx" ON "payment_references" USING btree ("status","checked_at");