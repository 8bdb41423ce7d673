ALTER TABLE "identities" ADD COLUMN "unsafe_payout_wallet" text;--> statement-breakpoint
ALTER TABLE "identities" ADD COLUMN "unsafe_payout_reason" text;