import { productById, ROUTES } from '@paydesk/contract';
import { describe, expect, it } from 'vitest';
import { CHANNELS, channelFields, KIND_FIELDS, kindOf, maskNumber, RESOURCE_PAGES, shortAddress } from './channels';

const EXPECTED_ACCESS = {
  supplier: ['supplier'],
  admin: ['admin', 'superAdmin'],
  customerService: ['customerService', 'technicalMaintenance'],
};

describe('resource channels', () => {
  it('each resource page is a route whose access fits its mode, listing catalogue products with fields', () => {
    for (const [name, { channel, mode }] of Object.entries(RESOURCE_PAGES)) {
      const route = ROUTES.find((r) => r.name === name);
      expect(route, name).toBeDefined();
      expect([...(route?.access as string[])].sort(), name).toEqual([...EXPECTED_ACCESS[mode]].sort());
      for (const id of channel.products) {
        expect(productById(id), `${name} ${id}`).toBeDefined();
        expect(KIND_FIELDS[kindOf(id)].length, `${name} ${id}`).toBeGreaterThan(0);
      }
    }
  });

  it('the payout pages serve bank payout (2001), the gateway pages gateway (2003) and India auto payout (2002); "others" every other-channel product', () => {
    for (const name of ['indiaAutoPayoutList', 'indiaAutoPayoutListAdmin', 'indiaAutoPayoutListAdminCustomerService']) {
      expect([...RESOURCE_PAGES[name]!.channel.products], name).toEqual([2001]);
    }
    for (const name of [
      'razorpayPayProxyList',
      'razorpayPayProxyListAdmin',
      'razorpayPayProxyListAdminCustomerService',
    ]) {
      expect([...RESOURCE_PAGES[name]!.channel.products], name).toEqual([2003, 2002]);
    }
    expect(kindOf(2001)).toBe('bankPayout');
    // India auto payout is paid through a gateway (DESIGN section 7): its accounts are gateway accounts.
    expect(kindOf(2002)).toBe('gatewayPayout');
    expect(kindOf(2003)).toBe('gatewayPayout');
    for (const name of ['otherChannelOthers', 'otherChannelOthersAdmin']) {
      expect([...RESOURCE_PAGES[name]!.channel.products].sort(), name).toEqual([1001, 1045, 5001, 5002]);
    }
    // Every product with a resource kind has a page of some channel.
    const served = new Set(Object.values(CHANNELS).flatMap((c) => c.products));
    expect([...served].sort()).toEqual([1001, 1002, 1045, 2001, 2002, 2003, 3015, 3016, 4001, 5001, 5002]);
  });

  it('a channel of several kinds lists the fields of each once, in form order', () => {
    expect(channelFields(CHANNELS.otherChannels)).toEqual([
      'accountName',
      'bankName',
      'cardNumber',
      'ifsc',
      'vpa',
      'paymentLink',
    ]);
    expect(channelFields(CHANNELS.payout)).toEqual(['accountName', 'bankName', 'accountNumber', 'ifsc']);
  });

  it('masks all but the last 4 digits and shortens addresses', () => {
    expect(maskNumber('4111111111111234')).toBe('************1234');
    expect(maskNumber('1234')).toBe('1234');
    expect(shortAddress('TXYZopqrstuvwxyzABCDEFGHJKLMNPQRSa')).toBe('TXYZop…NPQRSa');
  });
});
