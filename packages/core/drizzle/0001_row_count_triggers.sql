-- Exact row counts for large tables, kept in the same transaction as every insert and delete,
-- so that lists report totalCount without a COUNT(*) over the table.
CREATE OR REPLACE FUNCTION maintain_row_count() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = TG_TABLE_NAME;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
INSERT INTO row_counts (table_name, row_count)
  SELECT 'posts', count(*) FROM posts
  UNION ALL SELECT 'matches', count(*) FROM matches
  UNION ALL SELECT 'users', count(*) FROM users
  UNION ALL SELECT 'examples', count(*) FROM examples;
--> statement-breakpoint
CREATE TRIGGER posts_row_count AFTER INSERT OR DELETE ON posts
  FOR EACH ROW EXECUTE FUNCTION maintain_row_count();
--> statement-breakpoint
CREATE TRIGGER matches_row_count AFTER INSERT OR DELETE ON matches
  FOR EACH ROW EXECUTE FUNCTION maintain_row_count();
--> statement-breakpoint
CREATE TRIGGER users_row_count AFTER INSERT OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION maintain_row_count();
--> statement-breakpoint
CREATE TRIGGER examples_row_count AFTER INSERT OR DELETE ON examples
  FOR EACH ROW EXECUTE FUNCTION maintain_row_count();
