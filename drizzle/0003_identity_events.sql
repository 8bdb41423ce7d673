CREATE TABLE "identity_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tag" text NOT NULL,
	"type" text NOT NULL,
	"identity" jsonb,
	"at" timestamp (3) with time zone NOT NULL,
	"xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "identity_events_xid_id_idx" ON "identity_events" USING btree ("xid","id");--> statement-breakpoint
CREATE INDEX "identity_events_tag_xid_idx" ON "identity_events" USING btree ("tag","xid");