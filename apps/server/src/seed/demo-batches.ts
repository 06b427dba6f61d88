import { minorToMajorText } from '@paydesk/contract';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Services } from '../app.js';
import { payouts, resources } from '../db/schema.js';
import { formatPlatformTime } from '../platform/time.js';
import type { DemoPayouts, DemoStep } from './demo-payouts.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** The template of the demo's batches: ICICI's, whose result file the platform reads back. */
const TEMPLATE = 'icici-cib-bulk';
/** The result file's columns the ICICI template reads (bank-files/templates.ts), found by header. */
const RESULT_HEADER = 'Add Details 1,Amt,Status,UTR No,Reason';

/**
 * The demo's batch payouts (issue 20 item 9), made by the batch service on the history's clock with
 * supplier1's bank payout account: three days before the end, a batch of six payouts is created and
 * proposed by the admin, approved by the superadmin (maker-checker), exported as ICICI's bulk file and
 * settled by the bank's result file (five paid, one returned); two hours before the end, a batch of
 * three waits for the checker's approval. Its payouts are created for it, with amounts in a band
 * (4,321.xx and 4,123.xx rupees) that the history's other payouts (whole hundreds) never fall in, so a
 * batch takes exactly them, and no claim of the history touches them.
 */
export class DemoBatches {
  constructor(
    private readonly deps: {
      services: Services;
      payouts: DemoPayouts;
      supplierId: number;
      timeZone: string;
      endMs: number;
    },
  ) {}

  plan(): DemoStep[] {
    const { endMs } = this.deps;
    const settledAt = endMs - 3 * DAY_MS;
    const waitingAt = endMs - 2 * HOUR_MS;
    return [
      { at: settledAt, label: 'batchSettled', run: () => this.settledBatch(settledAt) },
      { at: waitingAt, label: 'batchProposed', run: () => this.proposedBatch(waitingAt) },
    ];
  }

  /** Six payouts in a batch that goes the whole way: proposed, approved, exported, settled by the bank's file. */
  private async settledBatch(at: number) {
    const made = await this.payoutsInBand(at, 432_100, 6);
    if (!made) return;
    const batches = this.deps.services.payoutBatches;
    const { batchId } = await this.createAndPropose(made.band, at);
    const checker = this.deps.payouts.caller('superadmin', 'superAdmin');
    await batches.approve(batchId, checker);
    const admin = this.deps.payouts.caller('admin', 'admin');
    await batches.exportFile(batchId, admin);
    const rows = await this.deps.services.orders.deps.db
      .select({ orderCode: payouts.orderCode, amount: payouts.amount })
      .from(payouts)
      .where(eq(payouts.batchId, batchId))
      .orderBy(asc(payouts.id));
    const day = formatPlatformTime(new Date(at), this.deps.timeZone).slice(0, 10).replaceAll('-', '');
    const lines = rows.map((p, i) =>
      i === rows.length - 1
        ? `${p.orderCode},${minorToMajorText(p.amount)},Returned,,Beneficiary account closed`
        : `${p.orderCode},${minorToMajorText(p.amount)},Paid,ICIC${day}${String(batchId * 100 + i).padStart(6, '0')},`,
    );
    await batches.uploadResult(
      batchId,
      {
        fileName: `icici-result-${batchId}.csv`,
        mimeType: 'text/csv',
        body: Buffer.from([RESULT_HEADER, ...lines].join('\r\n')),
      },
      admin,
    );
  }

  /** Three payouts in a proposed batch: the demo's superadmin approves it (the admin was the maker). */
  private async proposedBatch(at: number) {
    const made = await this.payoutsInBand(at, 412_300, 3);
    if (made) await this.createAndPropose(made.band, at);
  }

  /** `count` payouts of amounts from `base` up by one rupee, when merchant1 can hold them all easily. */
  private async payoutsInBand(at: number, base: number, count: number) {
    const needed = Array.from({ length: count }, (_, i) => base + i * 100 + 37);
    const total = needed.reduce((a, b) => a + b, 0);
    if ((await this.deps.payouts.available()) < total * 3) return null;
    for (const amount of needed) await this.deps.payouts.createSigned(at, amount);
    return { band: { minAmount: needed[0]!, maxAmount: needed.at(-1)! } };
  }

  /** The admin makes the batch on supplier1's bank payout account and proposes it (the maker). */
  private async createAndPropose(band: { minAmount: number; maxAmount: number }, at: number) {
    const { services } = this.deps;
    const [account] = await services.orders.deps.db
      .select({ id: resources.id })
      .from(resources)
      .where(
        and(eq(resources.supplierId, this.deps.supplierId), eq(resources.productId, 2001), isNull(resources.deletedAt)),
      )
      .orderBy(asc(resources.id))
      .limit(1);
    if (!account) throw new Error('the demo batch needs supplier1’s bank payout account');
    const maker = this.deps.payouts.caller('admin', 'admin');
    const created = await services.payoutBatches.create(
      {
        resourceId: account.id,
        templateId: TEMPLATE,
        payoutTime: formatPlatformTime(new Date(at + HOUR_MS), this.deps.timeZone),
        ...band,
        maxCount: 500,
      },
      maker,
    );
    await services.payoutBatches.propose(created.batchId, maker);
    return created;
  }
}
