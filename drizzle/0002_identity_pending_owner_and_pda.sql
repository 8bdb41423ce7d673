ALTER TABLE "identities" ADD COLUMN "pending_owner" text;--> statement-breakpoint
ALTER TABLE "identities" ADD COLUMN "pda" text;--> statement-breakpoint
CREATE INDEX "identities_pending_owner_idx" ON "identities" USING btree ("pending_owner");--> statement-breakpoint
CREATE UNIQUE INDEX "identities_pda_idx" ON "identities" USING btree ("pda");