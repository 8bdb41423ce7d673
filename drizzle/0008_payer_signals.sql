-- The look-alike skeleton of lib/identity/skeleton.ts (skeletonSql('tag')); tests/identity/skeleton.test.ts checks they agree.
CREATE FUNCTION tag_skeleton(tag text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN replace(replace(replace(translate(tag, '01i58_', 'ollsb'), 'rn', 'm'), 'vv', 'w'), 'cl', 'd');--> statement-breakpoint
ALTER TABLE "identities" ADD COLUMN "owner_since" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "identities" ADD COLUMN "wallet_since" timestamp (3) with time zone;--> statement-breakpoint
-- Rows mirrored before: the registration is the newest change the mirror can vouch for.
UPDATE "identities" SET "owner_since" = "created_at", "wallet_since" = "created_at";--> statement-breakpoint
ALTER TABLE "identities" ADD COLUMN "skeleton" text GENERATED ALWAYS AS (tag_skeleton(tag)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "indexer_cursors" ADD COLUMN "synced_slot" bigint;--> statement-breakpoint
ALTER TABLE "primary_tags" ADD COLUMN "ended_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "identities_skeleton_idx" ON "identities" USING btree ("skeleton");
