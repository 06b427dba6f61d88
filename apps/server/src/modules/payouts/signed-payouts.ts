import { type CreatePayoutRequest, note, type PayoutAnswer, type QueryPayoutRequest } from '@paydesk/contract';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { payouts } from '../../db/schema.js';
import { apiError } from '../../platform/errors.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { SignedCalls } from '../merchants/signed-call.js';
import { payoutAnswerOf } from './payout-core.js';
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

  /** The caller's payout by mchOrderNo or orderCode; another merchant's is 2012 exactly as an unknown one. */
  async query(input: QueryPayoutRequest, ctx: { ip: string }): Promise<PayoutAnswer> {
    const { merchantId } = await this.signedCalls.check(input, ctx.ip);
    const [payout] = await this.deps.db
      .select()
      .from(payouts)
      .where(
        and(
          eq(payouts.merchantId, merchantId),
          input.orderCode !== undefined
            ? eq(payouts.orderCode, input.orderCode)
            : eq(payouts.merchantOrderNo, String(input.mchOrderNo)),
        ),
      );
    if (!payout) throw apiError('orderNotFound');
    return payoutAnswerOf(payout);
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
