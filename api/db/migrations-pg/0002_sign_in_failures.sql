CREATE TABLE "sign_in_failures" (
	"id" text PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"address" text NOT NULL,
	"at" bigint NOT NULL,
	"counts_for_account" bigint DEFAULT 1 NOT NULL,
	"counts_for_pair" bigint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sign_in_failures_account_idx" ON "sign_in_failures" USING btree ("account","at");--> statement-breakpoint
CREATE INDEX "sign_in_failures_address_idx" ON "sign_in_failures" USING btree ("address","at");--> statement-breakpoint
CREATE INDEX "sign_in_failures_at_idx" ON "sign_in_failures" USING btree ("at");