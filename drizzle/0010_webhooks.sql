CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"event_id" bigint NOT NULL,
	"attempted_at" timestamp (3) with time zone NOT NULL,
	"status" integer,
	"latency_ms" integer NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "webhook_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"url" text NOT NULL,
	"tags" text[],
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_until" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"cursor_xid" "xid8" NOT NULL,
	"cursor_id" bigint NOT NULL,
	"epoch" integer DEFAULT 0 NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"failing_since" timestamp (3) with time zone,
	"last_error" text,
	"next_attempt_at" timestamp (3) with time zone NOT NULL,
	"leased_until" timestamp (3) with time zone,
	"disabled_at" timestamp (3) with time zone,
	"disabled_reason" text
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_subscription_id_webhook_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."webhook_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_subscription_idx" ON "webhook_deliveries" USING btree ("subscription_id","id");--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_owner_idx" ON "webhook_subscriptions" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_due_idx" ON "webhook_subscriptions" USING btree ("next_attempt_at");