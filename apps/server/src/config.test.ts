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

  it('reads TRUST_PROXY as no proxy, a number of proxies, or their addresses, never as every hop', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16' }).trustProxy).toBe('10.0.0.1,10.1.0.0/16');
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('refuses bad values with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DEMO: 'maybe' })).toThrow(/DEMO/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(loadConfig({ DEMO: '0' }).demo).toBe(false);
  });

  it('reads the global rate limit and the metrics token', () => {
    expect(loadConfig({}).globalRateLimit).toBe(12_000);
    expect(loadConfig({ GLOBAL_RATE_LIMIT: '0' }).globalRateLimit).toBe(0);
    expect(loadConfig({ GLOBAL_RATE_LIMIT: '600' }).globalRateLimit).toBe(600);
    expect(() => loadConfig({ GLOBAL_RATE_LIMIT: '-1' })).toThrow(/GLOBAL_RATE_LIMIT/);
    expect(() => loadConfig({ GLOBAL_RATE_LIMIT: 'lots' })).toThrow(/GLOBAL_RATE_LIMIT/);
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a-long-enough-scrape-token' }).metricsToken).toBe('a-long-enough-scrape-token');
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });
});
