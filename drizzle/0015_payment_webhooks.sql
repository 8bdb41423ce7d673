CREATE TABLE "payment_events" (
	"id" bigint PRIMARY KEY DEFAULT nextval('identity_events_id_seq') NOT NULL,
	"reference" text NOT NULL,
	"owner" text NOT NULL,
	"tag" text NOT NULL,
	"status" text NOT NULL,
	"receipt" json NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_references" ADD COLUMN "owner" text;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "events" text[] DEFAULT '{identity.changed}' NOT NULL;--> statement-breakpoint
CREATE INDEX "payment_events_owner_xid_id_idx" ON "payment_events" USING btree ("owner","xid","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_events_reference_status_idx" ON "payment_events" USING btree ("reference","status");--> statement-breakpoint
-- References issued before this migration: their tag's owner now (the owner at issue, but for a tag that changed hands since).
UPDATE "payment_references" AS p SET "owner" = i."owner" FROM "identities" AS i WHERE i."tag" = p."tag";
