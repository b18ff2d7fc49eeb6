import cluster from 'node:cluster';
import type { Logger } from 'pino';
import type { Config } from './config';
import { serveClusterMetrics } from './metrics';
import { openDatabase, prepareDatabase } from './start';

/**
 * WEB_CONCURRENCY > 1: this primary prepares the database once, then forks that many workers that
 * share the port (node:cluster). A worker that dies is replaced; SIGTERM/SIGINT drain every worker
 * (each finishes its requests in flight) before the primary exits.
 */
export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  const database = await openDatabase(config);
  await prepareDatabase(config, logger, database);
  await database.close();
  serveClusterMetrics();

  let stopping = false;
  const fork = () => cluster.fork({ CAMPUS_PREPARED: '1' });
  for (let i = 0; i < config.WEB_CONCURRENCY; i++) fork();
  logger.info({ workers: config.WEB_CONCURRENCY }, 'cluster primary started');

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    logger.error({ pid: worker.process.pid, code, signal }, 'worker died; starting another');
    setTimeout(fork, 500);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'stopping workers');
      const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
      const exited = workers.map((w) => new Promise((resolve) => w.once('exit', resolve)));
      for (const w of workers) w.process.kill('SIGTERM');
      // Each worker waits SHUTDOWN_DELAY, then drains for up to SHUTDOWN_TIMEOUT.
      const grace = (config.SHUTDOWN_DELAY + config.SHUTDOWN_TIMEOUT + 5) * 1000;
      const force = setTimeout(() => workers.forEach((w) => w.process.kill('SIGKILL')), grace);
      void Promise.all(exited).then(() => {
        clearTimeout(force);
        process.exit(0);
      });
    });
  }
}
