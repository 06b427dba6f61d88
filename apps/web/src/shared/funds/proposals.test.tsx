import type { ProposalRow, Role } from '@paydesk/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { ok, pageOf, renderPage, stubServer, testUser } from '../../test/renderPage';
import { BalanceProposalButton } from './BalanceProposalButton';
import { PendingProposals } from './PendingProposals';

let server: ReturnType<typeof stubServer>;

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  server = stubServer({ '/v1.0/balance/propose': ok({ id: 7 }) });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await changeLanguage('en-US');
});

async function openKind(partyKind: 'merchant' | 'supplier', kind: string) {
  const user = userEvent.setup();
  renderPage(
    <BalanceProposalButton
      partyKind={partyKind}
      partyId={3}
      partyName="Party Three"
      kinds={partyKind === 'merchant' ? ['adjust', 'clear'] : ['adjust', 'deposit', 'withdraw']}
    />,
    '/merchants/list',
  );
  await user.click(screen.getByTestId(`balance-propose-${partyKind}-3`));
  await user.click(await screen.findByTestId(`balance-propose-kind-${kind}`));
  await screen.findByTestId('balance-propose-form');
  return user;
}

describe('BalanceProposalButton', () => {
  it('proposes a decrease in minor units with the minus sign, and says another staff account approves it', async () => {
    const user = await openKind('merchant', 'adjust');
    await user.click(screen.getByTestId('balance-propose-decrease'));
    await user.type(screen.getByTestId('balance-propose-amount'), '1,234.56');
    await user.type(screen.getByTestId('balance-propose-note'), 'fee correction');
    await user.click(screen.getByTestId('balance-propose-submit'));
    expect(await screen.findByText('Sent for approval by another staff account')).toBeTruthy();
    expect(server.sent('/v1.0/balance/propose')[0]?.body).toEqual({
      partyKind: 'merchant',
      partyId: 3,
      kind: 'adjust',
      amount: -123_456,
      note: 'fee correction',
    });
  });

  it('a supplier deposit is positive minor units', async () => {
    const user = await openKind('supplier', 'deposit');
    expect(screen.queryByTestId('balance-propose-decrease')).toBeNull();
    await user.type(screen.getByTestId('balance-propose-amount'), '100000');
    await user.type(screen.getByTestId('balance-propose-note'), 'top-up');
    await user.click(screen.getByTestId('balance-propose-submit'));
    await waitFor(() => expect(server.sent('/v1.0/balance/propose')).toHaveLength(1));
    expect(server.sent('/v1.0/balance/propose')[0]?.body).toMatchObject({ kind: 'deposit', amount: 10_000_000 });
  });

  it('clearing takes no amount and warns that the whole available balance is cleared', async () => {
    const user = await openKind('merchant', 'clear');
    expect(screen.getByTestId('balance-propose-clear-warning').textContent).toContain('whole available balance');
    expect(screen.queryByTestId('balance-propose-amount')).toBeNull();
    await user.type(screen.getByTestId('balance-propose-note'), 'account closed');
    await user.click(screen.getByTestId('balance-propose-submit'));
    await waitFor(() => expect(server.sent('/v1.0/balance/propose')).toHaveLength(1));
    expect(server.sent('/v1.0/balance/propose')[0]?.body).toEqual({
      partyKind: 'merchant',
      partyId: 3,
      kind: 'clear',
      note: 'account closed',
    });
  });

  it('refuses an amount with three decimals or no note, and sends nothing', async () => {
    const user = await openKind('merchant', 'adjust');
    await user.type(screen.getByTestId('balance-propose-amount'), '12.345');
    await user.click(screen.getByTestId('balance-propose-submit'));
    expect(await screen.findByText('Enter an amount above 0 with at most two decimals')).toBeTruthy();
    expect(await screen.findByText('Enter a note (1 to 200 characters)')).toBeTruthy();
    expect(server.sent('/v1.0/balance/propose')).toHaveLength(0);
  });

  it('shows a refusal by its reason in the user’s language (Simplified Chinese)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await changeLanguage('zh-CN');
    server.answers.set('/v1.0/balance/propose', {
      code: 422,
      msg: 'clearing a merchant balance is switched off',
      data: { reason: 'clearDisabled' },
    });
    const user = await openKind('merchant', 'clear');
    expect(screen.getByText('清零余额：Party Three')).toBeTruthy();
    await user.type(screen.getByTestId('balance-propose-note'), 'x');
    await user.click(screen.getByTestId('balance-propose-submit'));
    expect(await screen.findByText('操作失败：清零商户余额功能未开启（CanClearMerchantBalance）')).toBeTruthy();
  });
});

const proposalRow = (over: Partial<ProposalRow>): ProposalRow => ({
  id: 11,
  partyKind: 'supplier',
  partyId: 3,
  partyName: 'Supplier One',
  kind: 'deposit',
  amount: 10_000_000,
  note: 'top-up',
  state: 'pending',
  proposedBy: 'admin',
  proposedById: 2,
  proposedAt: '2024-05-01T10:00:00.000Z',
  decidedBy: null,
  decidedAt: null,
  decisionNote: null,
  transferId: null,
  ...over,
});

describe('PendingProposals', () => {
  const renderPending = (access: Role = 'admin') =>
    renderPage(<PendingProposals partyKind="supplier" />, '/supplier/list', testUser({ access, userId: 2 }));

  beforeEach(() => {
    server.answers.set(
      '/v1.0/balance/getProposalList',
      pageOf([proposalRow({}), proposalRow({ id: 12, proposedBy: 'superadmin', proposedById: 1, amount: 250_075 })]),
    );
  });

  it('lists pending proposals with money /100; one’s own cannot be approved but can be cancelled', async () => {
    renderPending();
    const card = await screen.findByTestId('pending-proposals-supplier');
    expect(await within(card).findByText('100,000.00')).toBeTruthy();
    expect(within(card).getByText('2,500.75')).toBeTruthy();
    expect(screen.getByTestId('proposal-approve-11').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('proposal-approve-12').hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId('proposal-cancel-11')).toBeTruthy();
    expect(screen.queryByTestId('proposal-cancel-12')).toBeNull();
    expect(server.sent('/v1.0/balance/getProposalList')[0]?.url).toContain('state=pending');
    expect(server.sent('/v1.0/balance/getProposalList')[0]?.url).toContain('partyKind=supplier');
  });

  it('approves another account’s proposal and reloads; a refusal reads by its reason', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.answers.set('/v1.0/balance/approve', {
      code: 422,
      msg: 'insufficient balance',
      data: { reason: 'insufficientBalance' },
    });
    const user = userEvent.setup();
    renderPending();
    await user.click(await screen.findByTestId('proposal-approve-12'));
    await user.click(await screen.findByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Failed: Insufficient balance')).toBeTruthy();
    expect(server.sent('/v1.0/balance/approve')[0]?.body).toEqual({ id: 12 });
    await waitFor(() => expect(server.sent('/v1.0/balance/getProposalList').length).toBeGreaterThan(1));
  });

  it('rejects with a reason', async () => {
    server.answers.set('/v1.0/balance/reject', ok(null));
    const user = userEvent.setup();
    renderPending();
    await user.click(await screen.findByTestId('proposal-reject-12'));
    await user.type(await screen.findByTestId('proposal-reject-reason'), 'not confirmed');
    await user.click(screen.getByTestId('proposal-reject-submit'));
    expect(await screen.findByText('Rejected')).toBeTruthy();
    expect(server.sent('/v1.0/balance/reject')[0]?.body).toEqual({ id: 12, reason: 'not confirmed' });
  });

  it('is not shown to customer service', async () => {
    renderPending('customerService');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('pending-proposals-supplier')).toBeNull();
    expect(server.sent('/v1.0/balance/getProposalList')).toHaveLength(0);
  });

  it('reads in Traditional Chinese', async () => {
    await changeLanguage('zh-TW');
    renderPending();
    expect(await screen.findByText('待審核的餘額操作')).toBeTruthy();
    expect((await screen.findAllByText('押金儲值')).length).toBe(2);
  });
});
