import { type CreatePayoutRequest, note } from '@paydesk/contract';
import type { DbOrTx } from '../../db/client.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { SignedCalls } from '../merchants/signed-call.js';
import type { PayoutIntake } from './payout-intake.js';

/** The merchant API's payout calls: the signed call's checks (merchants/signed-call.ts), then the payout's own rules. */
export class SignedPayouts {
  private readonly signedCalls: SignedCalls;

  constructor(
    private readonly deps: {
      db: DbOrTx;
      merchants: Pick<MerchantsService, 'signingSecretOf'>;
      intake: Pick<PayoutIntake, 'createFor' | 'settings'>;
    },
  ) {
    this.signedCalls = new SignedCalls({
      db: deps.db,
      merchants: deps.merchants,
      serviceOpen: async () => (await deps.intake.settings.get()).enableService,
    });
  }

  async create(input: CreatePayoutRequest, ctx: { ip: string }) {
    const { merchantId } = await this.signedCalls.check(input, ctx.ip);
    const { mchId: _mchId, sign: _sign, signType: _signType, ...params } = input;
    return this.deps.intake.createFor(merchantId, params, {
      via: note('viaApi', { ip: ctx.ip }),
      actor: null,
      audit: false,
    });
  }
}
