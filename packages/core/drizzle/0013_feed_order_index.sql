DROP INDEX "posts_created_at_id_idx";--> statement-breakpoint
CREATE INDEX "posts_feed_order_idx" ON "posts" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"hidden_at","author_id");