import { productById, ROUTES } from '@paydesk/contract';
import { describe, expect, it } from 'vitest';
import { BUILT_PAGES } from '../../app/built-pages';
import { maskNumber, RESOURCE_PAGES, shortAddress } from './channels';

const EXPECTED_ACCESS = {
  supplier: ['supplier'],
  admin: ['admin', 'superAdmin'],
  customerService: ['customerService', 'technicalMaintenance'],
};

describe('resource channels', () => {
  it('each resource page is a built route whose access fits its mode, listing products of its kind', () => {
    for (const [name, { channel, mode }] of Object.entries(RESOURCE_PAGES)) {
      const route = ROUTES.find((r) => r.name === name);
      expect(route, name).toBeDefined();
      expect([...(route?.access as string[])].sort(), name).toEqual([...EXPECTED_ACCESS[mode]].sort());
      expect((BUILT_PAGES as readonly string[]).includes(name), name).toBe(true);
      for (const id of channel.products) expect(productById(id)?.resourceKind, `${name} ${id}`).toBe(channel.kind);
    }
  });

  it('masks all but the last 4 digits and shortens addresses', () => {
    expect(maskNumber('4111111111111234')).toBe('************1234');
    expect(maskNumber('1234')).toBe('1234');
    expect(shortAddress('TXYZopqrstuvwxyzABCDEFGHJKLMNPQRSa')).toBe('TXYZop…NPQRSa');
  });
});
