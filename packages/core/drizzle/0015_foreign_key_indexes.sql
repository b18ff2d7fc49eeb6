CREATE INDEX "account_status_changes_changed_by_idx" ON "account_status_changes" USING btree ("changed_by");--> statement-breakpoint
CREATE INDEX "examples_created_by_idx" ON "examples" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "comment_reports_user_idx" ON "comment_reports" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "post_attendances_user_idx" ON "post_attendances" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "post_likes_user_idx" ON "post_likes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "post_reports_user_idx" ON "post_reports" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "group_join_requests_user_idx" ON "group_join_requests" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "group_join_requests_decided_by_idx" ON "group_join_requests" USING btree ("decided_by");--> statement-breakpoint
CREATE INDEX "moderation_decisions_admin_idx" ON "moderation_decisions" USING btree ("admin_id");