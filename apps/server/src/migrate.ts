import { ConfigError, loadConfig } from './config';
import { migrationsFolder, openDatabase } from './start';

/** `pnpm db:migrate`: applies the committed migrations to the configured database. */
try {
  const config = loadConfig(process.env);
  const database = await openDatabase(config);
  await database.migrate(migrationsFolder());
  await database.close();
  console.log(`migrations applied (${database.kind})`);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
