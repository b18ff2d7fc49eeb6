-- Cursors (docs/contract/cursors.md): a page after a cursor is a range of the index that matches
-- its list's order, from the cursor's key on. The type filter had none (newest first within a type).
CREATE INDEX "posts_type_created_idx" ON "posts" USING btree ("type","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);