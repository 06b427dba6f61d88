import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('configuration from the environment', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({ INIT_CWD: '/srv/paydesk' });
    expect(config).toMatchObject({
      port: 8080,
      dataDir: '/srv/paydesk/data',
      databaseUrl: undefined,
      demo: true,
      sessionIdleMinutes: 120,
      sessionLifetimeMinutes: 1440,
      token2Minutes: 15,
      timeZone: 'Asia/Kolkata',
    });
  });

  it('reads relative paths from where npm was typed, not from the workspace folder', () => {
    expect(loadConfig({ INIT_CWD: '/home/me/paydesk', DATA_DIR: './db' }).dataDir).toBe('/home/me/paydesk/db');
    expect(loadConfig({ INIT_CWD: '/home/me/paydesk', DATA_DIR: '/var/lib/paydesk' }).dataDir).toBe('/var/lib/paydesk');
  });

  it('refuses bad values with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DEMO: 'maybe' })).toThrow(/DEMO/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(loadConfig({ DEMO: '0' }).demo).toBe(false);
  });
});
