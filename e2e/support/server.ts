import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp, buildServices } from '@paydesk/server';
import { type Config, defaultConfig } from '../../apps/server/src/config.js';
import { type SeedResult, seedIfEmpty } from '../../apps/server/src/seed/seed.js';
import { openTestDatabase } from '../../apps/server/src/testing/test-databases.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const webDist = join(repoRoot, 'apps', 'web', 'dist');

export interface RunningServer {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  seed: SeedResult;
  close(): Promise<void>;
}

/**
 * PGlite in memory, or a scratch PostgreSQL database beside TEST_DATABASE_URL when it is set; a copy
 * of the run's migrated one (databases.ts).
 */
const testDatabase = () => openTestDatabase(process.env.TEST_DATABASE_URL);

/**
 * The real server in-process with the demo data and the built console, on a free port of 127.0.0.1.
 * `jobs`: run the background jobs (merchant callbacks, timeouts) as `npm start` does.
 */
export async function startServer(options: { jobs?: boolean } = {}): Promise<RunningServer> {
  if (!existsSync(join(webDist, 'index.html'))) throw new Error(`no console build in ${webDist}`);
  const config: Config = { ...defaultConfig(), demo: true, webDist, jobs: options.jobs ?? false };
  const { database, drop } = await testDatabase();
  try {
    const seed = await seedIfEmpty(database.db, buildServices({ config, database }), config);
    const app = await buildApp({ config, database });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      seed,
      close: async () => {
        await app.close();
        await database.close();
        await drop();
      },
    };
  } catch (error) {
    await database.close();
    await drop();
    throw error;
  }
}
