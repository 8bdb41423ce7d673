-- The look-alike table of lib/identity/skeleton.ts grew (digits 2 3 4 6 7 9, q as g, the pairs nn and uu): tag_skeleton
-- becomes its new skeletonSql('tag'), and every stored skeleton is recomputed. A generated column keeps what it computed
-- when a row was written, so it is dropped and added again (its index with it), which computes it for every row.
ALTER TABLE "identities" DROP COLUMN "skeleton";--> statement-breakpoint
CREATE OR REPLACE FUNCTION tag_skeleton(tag text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN replace(replace(replace(replace(replace(translate(tag, '01i23456789q_', 'ollzeasbtbgg'), 'rn', 'm'), 'nn', 'm'), 'vv', 'w'), 'uu', 'w'), 'cl', 'd');--> statement-breakpoint
ALTER TABLE "identities" ADD COLUMN "skeleton" text GENERATED ALWAYS AS (tag_skeleton(tag)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "identities_skeleton_idx" ON "identities" USING btree ("skeleton");
