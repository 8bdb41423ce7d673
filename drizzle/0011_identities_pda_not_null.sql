-- Every mirror row carries its record's address (the indexer writes it with the row). A row
-- without one was mirrored before the column existed and never re-read since: the indexer of
-- an earlier release fills those in; run it once, then migrate.
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM "identities" WHERE "pda" IS NULL) THEN
    RAISE EXCEPTION 'identities.pda is null on % rows: run the previous release''s indexer once to fill them, then migrate again',
      (SELECT count(*) FROM "identities" WHERE "pda" IS NULL);
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "identities" ALTER COLUMN "pda" SET NOT NULL;
