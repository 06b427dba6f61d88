import type { SupplierProxyRow, SupplierRow } from '@paydesk/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import { chosen } from '../../test/select';
import SupplierProxyPage from './SupplierProxyPage';

// Typing into antd forms is slow on a shared machine.
vi.setConfig({ testTimeout: 30_000 });

const mine = (over: Partial<SupplierRow> = {}): SupplierRow => ({
  id: 1,
  userId: 6,
  account: 'supplier1',
  name: 'Supplier One',
  parentId: null,
  parentName: null,
  enabled: true,
  remark: '',
  agentCount: 1,
  balance: 0,
  frozenBalance: 0,
  createdAt: '2024-05-01T10:00:00.000Z',
  proposalKinds: [],
  ...over,
});
const AGENT: SupplierProxyRow = {
  id: 7,
  account: 'agent1',
  nickname: 'Agent One',
  parentId: 6,
  parentAccount: 'supplier1',
  supplierId: 2,
  name: 'Agent One',
  enabled: true,
  balance: 250_000_00,
  frozenBalance: 12_34,
  createdAt: '2024-05-01T10:00:00.000Z',
};
const PROXY = ok({
  list: [AGENT],
  total: 1,
  pageIndex: 1,
  pageSize: 20,
  summary: { balance: 250_000_00, frozenBalance: 12_34 },
});
const COMMISSIONS = ok([
  { productId: 1001, parentRate: 300, agentRate: 200, agentEnabled: true },
  { productId: 2001, parentRate: 100, agentRate: null, agentEnabled: false },
]);
const PAGE = '/supplier-proxy';
const ABOVE = {
  code: 422,
  msg: "an agent's commission may not exceed its parent's (3.00%)",
  data: { reason: 'commissionAboveParent', max: 300 },
};
let server: ReturnType<typeof stubServer>;

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  server = stubServer({
    '/v1.0/supplier/getMine': ok(mine()),
    '/v1.0/admin/getSupplierProxyList': PROXY,
    '/v1.0/supplier/getAgentCommissions': COMMISSIONS,
    '/v1.0/view/getList': ok([]),
  });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await changeLanguage('en-US');
});

/** supplier1's console account is AGENT's parent (userId 6). */
const renderAt = () =>
  renderPage(<SupplierProxyPage />, PAGE, testUser({ access: 'supplier', account: 'supplier1', userId: 6 }));

/** Opens agent1's commission modal and picks UPI collection. */
async function openCommission(productLabel = 'UPI collection') {
  const user = userEvent.setup({ delay: null });
  await user.click(await screen.findByTestId('agent-commission-agent1'));
  const form = await screen.findByTestId('agent-commission-form');
  await user.click(within(form).getByRole('combobox'));
  await user.click(await screen.findByTitle(productLabel));
  await chosen(productLabel);
  return user;
}

describe('SupplierProxyPage', () => {
  it('lists the caller’s agents with balances /100 and totals; the create button for a top-level supplier', async () => {
    renderAt();
    const list = await screen.findByTestId('agent-list');
    expect(await within(list).findByText('agent1')).toBeTruthy();
    expect(within(list).getAllByText('250,000.00').length).toBeGreaterThan(0);
    expect(screen.getByTestId('list-total-frozenBalance').textContent).toBe('12.34');
    expect(await screen.findByTestId('agent-create')).toBeTruthy();
    expect(screen.queryByTestId('agent-notice')).toBeNull();
  });

  it('creates an agent, with the spec’s validation texts first', async () => {
    server.answers.set('/v1.0/supplier/createAgent', ok({ id: 3, userId: 9 }));
    renderAt();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('agent-create'));
    await user.type(await screen.findByTestId('agent-form-account'), 'agent 2');
    await user.type(screen.getByTestId('agent-form-password'), 'agentagent');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('account accepts only digits and English letters')).toBeTruthy();
    expect(await screen.findByText('password must contain digits and letters')).toBeTruthy();
    expect(await screen.findByText('supplier name cannot be empty')).toBeTruthy();
    expect(server.sent('/v1.0/supplier/createAgent')).toHaveLength(0);

    await user.clear(screen.getByTestId('agent-form-account'));
    await user.type(screen.getByTestId('agent-form-account'), 'agent2');
    await user.clear(screen.getByTestId('agent-form-password'));
    await user.type(screen.getByTestId('agent-form-password'), 'agent2024');
    await user.type(screen.getByTestId('agent-form-nickname'), 'Agent Two');
    await user.type(screen.getByTestId('agent-form-name'), 'Agent Two Ltd');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Agent created')).toBeTruthy();
    expect(server.sent('/v1.0/supplier/createAgent')[0]?.body).toEqual({
      account: 'agent2',
      nickname: 'Agent Two',
      password: 'agent2024',
      name: 'Agent Two Ltd',
    });
  });

  it('the commission modal shows the caller’s own rate as the maximum, and the server’s refusal in clear words', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.answers.set('/v1.0/supplier/setAgentCommission', ABOVE);
    renderAt();
    const user = await openCommission();
    expect((await screen.findByTestId('agent-commission-max')).textContent).toBe('Your own rate (the maximum): 3.00%');
    expect((await screen.findByTestId('agent-commission-current')).textContent).toBe('Agent’s current rate: 2.00%');
    const rate = screen.getByTestId('agent-commission-rate');
    await user.clear(rate);
    await user.type(rate, '3.5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByTestId('agent-commission-error')).textContent).toContain(
      "An agent's commission may not exceed its parent's (at most 3.00%)",
    );
    expect(server.sent('/v1.0/supplier/setAgentCommission')[0]?.body).toEqual({
      agentId: 2,
      productId: 1001,
      commissionRate: 350,
    });
  });

  it('a valid commission is saved and the modal closes', async () => {
    server.answers.set('/v1.0/supplier/setAgentCommission', ok(null));
    renderAt();
    const user = await openCommission('Bank payout');
    expect((await screen.findByTestId('agent-commission-current')).textContent).toBe('Agent’s current rate: not set');
    await user.type(screen.getByTestId('agent-commission-rate'), '0.75');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Commission saved')).toBeTruthy();
    expect(server.sent('/v1.0/supplier/setAgentCommission')[0]?.body).toEqual({
      agentId: 2,
      productId: 2001,
      commissionRate: 75,
    });
    await waitFor(() => expect(screen.queryByTestId('agent-commission-form')).toBeNull());
  });

  it('the enable switch sends updateAgent with the agent’s name and says closed successfully', async () => {
    server.answers.set('/v1.0/supplier/updateAgent', ok(null));
    renderAt();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('agent-enabled-agent1'));
    expect(await screen.findByText('closed successfully')).toBeTruthy();
    expect(server.sent('/v1.0/supplier/updateAgent')[0]?.body).toEqual({
      agentId: 2,
      name: 'Agent One',
      nickname: 'Agent One',
      enabled: false,
    });
  });

  it('offers edit and commission on its own agents only (the contract’s agent rule), the switch likewise', async () => {
    const theirs: SupplierProxyRow = { ...AGENT, id: 8, account: 'agent9', supplierId: 9, parentId: 99 };
    server.answers.set(
      '/v1.0/admin/getSupplierProxyList',
      ok({ list: [AGENT, theirs], total: 2, pageIndex: 1, pageSize: 20, summary: { balance: 0, frozenBalance: 0 } }),
    );
    renderAt();
    expect(await screen.findByTestId('agent-edit-agent1')).toBeTruthy();
    expect(screen.getByTestId('agent-commission-agent1')).toBeTruthy();
    expect(screen.getByTestId('agent-enabled-agent1').hasAttribute('disabled')).toBe(false);
    expect(screen.queryByTestId('agent-edit-agent9')).toBeNull();
    expect(screen.queryByTestId('agent-commission-agent9')).toBeNull();
    expect(screen.getByTestId('agent-enabled-agent9').hasAttribute('disabled')).toBe(true);
  });

  it('edits an agent’s name and nickname, keeping it enabled', async () => {
    server.answers.set('/v1.0/supplier/updateAgent', ok(null));
    renderAt();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('agent-edit-agent1'));
    const name = await screen.findByTestId('agent-form-name');
    await user.clear(name);
    await user.type(name, 'Agent One Ltd');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(server.sent('/v1.0/supplier/updateAgent')[0]?.body).toEqual({
        agentId: 2,
        name: 'Agent One Ltd',
        nickname: 'Agent One',
        enabled: true,
      }),
    );
  });

  it('an agent sees that agents cannot have agents, and no create button', async () => {
    server.answers.set(
      '/v1.0/supplier/getMine',
      ok(mine({ id: 2, account: 'agent1', parentId: 1, parentName: 'Supplier One' })),
    );
    server.answers.set('/v1.0/admin/getSupplierProxyList', ok({ list: [], total: 0, pageIndex: 1, pageSize: 20 }));
    renderPage(<SupplierProxyPage />, PAGE, testUser({ access: 'supplier', account: 'agent1' }));
    expect((await screen.findByTestId('agent-notice')).textContent).toContain(
      'You are an agent: agents cannot have agents of their own.',
    );
    expect(screen.queryByTestId('agent-create')).toBeNull();
  });

  it('reads in Simplified and Traditional Chinese, the refusal too', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.answers.set('/v1.0/supplier/setAgentCommission', ABOVE);
    await changeLanguage('zh-CN');
    const first = renderAt();
    expect(await screen.findByText('新增代理')).toBeTruthy();
    const user = await openCommission('UPI 代收');
    expect((await screen.findByTestId('agent-commission-max')).textContent).toBe('您自己的佣金（上限）：3.00%');
    await user.clear(screen.getByTestId('agent-commission-rate'));
    await user.type(screen.getByTestId('agent-commission-rate'), '4');
    // antd spaces out a two-character Chinese button label.
    await user.click(screen.getByRole('button', { name: /^保\s*存$/ }));
    expect((await screen.findByTestId('agent-commission-error')).textContent).toContain(
      '代理的佣金率不能高于其上级码商（最高 3.00%）',
    );
    first.unmount();
    await changeLanguage('zh-TW');
    server.answers.set('/v1.0/supplier/getMine', ok(mine({ parentId: 1 })));
    renderAt();
    expect((await screen.findByTestId('agent-notice')).textContent).toContain('代理不能擁有自己的代理');
  });
});
