import { BlockList, isIP } from 'node:net';
import { type CreatePayoutRequest, note, type SignType } from '@paydesk/contract';
import type { Db } from '../../db/client.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { apiError } from '../orders/order-core.js';
import { signatureMatches } from '../orders/signature.js';
import type { PayoutIntake } from './payout-intake.js';

function ipAllowed(whitelist: readonly string[], ip: string): boolean {
  if (whitelist.length === 0) return true;
  const family = isIP(ip);
  if (family === 0) return false;
  const list = new BlockList();
  for (const entry of whitelist) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
}

/** The merchant API's payout calls: the signed call's checks, then the payout's own rules. */
export class SignedPayouts {
  constructor(
    private readonly deps: {
      db: Db;
      merchants: MerchantsService;
      intake: Pick<PayoutIntake, 'createFor' | 'settings'>;
    },
  ) {}

  async create(input: CreatePayoutRequest, ctx: { ip: string }) {
    const merchantId = await this.check(input, ctx.ip);
    const { mchId: _mchId, sign: _sign, signType: _signType, ...params } = input;
    return this.deps.intake.createFor(merchantId, params, {
      via: note('viaApi', { ip: ctx.ip }),
      actor: null,
      audit: false,
    });
  }

  /** Service switch (2011), merchant (2002), IP whitelist (2003), signature type and signature (2001). */
  private async check(params: CreatePayoutRequest, ip: string): Promise<number> {
    if (!(await this.deps.intake.settings.get()).enableService) throw apiError('serviceClosed');
    const signing = await this.deps.merchants.signingSecretOf(this.deps.db, String(params.mchId));
    if (!signing?.enabled) throw apiError('merchantUnavailable');
    if (!ipAllowed(signing.ipWhitelist, ip)) throw apiError('ipNotWhitelisted');
    const configured = signing.signType as SignType;
    if ((params.signType ?? configured) !== configured) throw apiError('badSignature');
    if (!signatureMatches(params, signing.secret, configured)) throw apiError('badSignature');
    return signing.merchantId;
  }
}
