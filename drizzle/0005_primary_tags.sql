CREATE TABLE "primary_tags" (
	"owner" text PRIMARY KEY NOT NULL,
	"tag" text NOT NULL,
	"chosen_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "identities_wallet_idx" ON "identities" USING btree ("wallet");