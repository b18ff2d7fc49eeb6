#!/bin/sh
# Runs a command with a transaction-mode PgBouncer (Debian: apt-get install -y pgbouncer) in front
# of TEST_DATABASE_URL's PostgreSQL and TEST_DATABASE_POOLER_URL set to it: the test suites then
# connect as a server deployed behind it (DATABASE_URL pooled, DATABASE_DIRECT_URL direct).
#   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test scripts/with-pgbouncer.sh npx pnpm@10.34.8 test
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
exec "$root/apps/server/node_modules/.bin/tsx" "$root/apps/server/test/support/with-pgbouncer.ts" -- "$@"
