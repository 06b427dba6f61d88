import type { PartyKind, Role } from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import type { Services } from '../app.js';
import type { Db } from '../db/client.js';
import { merchants, suppliers } from '../db/schema.js';
import type { ProposeInput } from '../modules/funds/funds.service.js';
import type { Actor } from '../platform/audit.js';

/** The demo balances (minor units), each explained by an approved proposal in the fund records. */
const DEMO_FUNDING: ReadonlyArray<{
  account: string;
  partyKind: PartyKind;
  input: Omit<ProposeInput, 'partyKind' | 'partyId'>;
}> = [
  {
    account: 'supplier1',
    partyKind: 'supplier',
    input: { kind: 'deposit', amount: 10_000_000, note: 'opening deposit (demo)' },
  },
  {
    account: 'agent1',
    partyKind: 'supplier',
    input: { kind: 'deposit', amount: 2_000_000, note: 'opening deposit (demo)' },
  },
  {
    account: 'merchant1',
    partyKind: 'merchant',
    input: { kind: 'adjust', amount: 500_000, note: 'opening balance (demo)' },
  },
];

const actorOf = (ids: ReadonlyMap<string, number>, account: string, role: Role): Actor => ({
  userId: ids.get(account) ?? null,
  account,
  role,
  ip: null,
});

/**
 * Demo data: balances through maker-checker proposals, the console's own path (admin proposes,
 * superadmin approves), so every balance has its fund records. `ids` maps each demo account name to
 * its user id; a demo account without its merchant or supplier record gets nothing.
 */
export async function seedDemoFunds(db: Db, services: Services, ids: ReadonlyMap<string, number>): Promise<void> {
  for (const demo of DEMO_FUNDING) {
    const userId = ids.get(demo.account);
    if (userId === undefined) continue;
    const table = demo.partyKind === 'merchant' ? merchants : suppliers;
    const [party] = await db.select({ id: table.id }).from(table).where(eq(table.userId, userId)).limit(1);
    if (!party) continue;
    await proposeAndApprove(services, ids, { ...demo.input, partyKind: demo.partyKind, partyId: party.id });
  }
}

/**
 * One balance change of the demo as staff make it: admin proposes, superadmin approves (two
 * transactions, each audited; the ledger transfer is posted by the approval). The demo orders use it
 * for the suppliers' deposits that cover their volume.
 */
export async function proposeAndApprove(
  services: Services,
  ids: ReadonlyMap<string, number>,
  input: ProposeInput,
): Promise<void> {
  const { id } = await services.funds.propose(input, actorOf(ids, 'admin', 'admin'), 'admin');
  await services.funds.approve(id, actorOf(ids, 'superadmin', 'superAdmin'));
}
