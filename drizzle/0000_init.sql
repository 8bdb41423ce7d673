CREATE TABLE "auth_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"pubkey" text NOT NULL,
	"message_hash" text NOT NULL,
	"issued_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"consumed_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "identities" (
	"tag" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"wallet" text NOT NULL,
	"display_name" text,
	"avatar" text,
	"bio" text,
	"preferred_token" text,
	"verified" boolean DEFAULT false NOT NULL,
	"merchant" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"signature" text NOT NULL,
	"slot" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "indexer_cursors" (
	"program_id" text PRIMARY KEY NOT NULL,
	"last_signature" text,
	"last_slot" bigint,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp (3) with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "auth_nonces_expires_at_idx" ON "auth_nonces" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "identities_owner_idx" ON "identities" USING btree ("owner");