import { endpoints, majorToMinor } from '@paydesk/contract';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiCall, apiLogin } from './support/api.js';
import { chooseLanguage, chooseOption, signIn } from './support/console.js';
import { consoleSuite } from './support/suite.js';

/**
 * Issue 4 as its users meet it: staff create a merchant with fees and a supplier whose deposit is
 * proposed by one staff account and approved by another; the balances and the fund records that
 * explain them; a supplier manages its agents' commissions; a merchant reads its fund records in
 * three languages and exports them.
 */
const suite = consoleSuite();
const secretOf = (account: string) => suite.secretOf(account);
const url = (path: string) => `${suite.server.url}${path}`;

/** Clicks the item of the newest open dropdown (see console-flows: popups may still be animating). */
async function clickMenuItem(page: Page, testId: string) {
  const item = page.locator('.ant-dropdown:visible').getByTestId(testId).last();
  await item.waitFor();
  await item.dispatchEvent('click');
}

/** Enters the second-level password in the dialog a token2 call opens. */
async function secondLevel(page: Page) {
  const dialog = page.locator('.ant-modal', { hasText: 'Second-level password' }).last();
  await dialog.locator('#secondLevel_password').fill('demo1234');
  await dialog.locator('#secondLevel_logInReason').fill('browser test');
  await dialog.getByRole('button', { name: 'OK' }).click();
}

/** The OK button of the popconfirm that is open. */
async function confirmPopup(page: Page) {
  const ok = page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'OK' }).last();
  await ok.waitFor();
  await ok.dispatchEvent('click');
}

const rowOf = (list: Locator, text: string) => list.locator('tr.ant-table-row', { hasText: text });

/** Sums a CSV column of minor units. */
function csvSum(csv: string, column: string): { rows: number; sum: number } {
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  const header = lines[0]!.split(',');
  const at = header.indexOf(column);
  const values = lines.slice(1).map((l) => Number(l.split(',')[at]));
  return { rows: values.length, sum: values.reduce((a, b) => a + b, 0) };
}

describe('merchants, suppliers and funds', () => {
  it('admin creates a merchant with a fee and a supplier; its deposit is proposed by admin and approved by superadmin; balances and fund records explain it', async () => {
    const admin = await suite.newPage('en-US');
    await signIn(admin, suite.server.url, 'admin', secretOf('admin'));

    // A merchant with its own console account; the API secret is shown once.
    await admin.goto(url('/merchants/list'));
    await admin.getByTestId('merchant-create').click();
    const form = admin.getByTestId('merchant-form');
    await form.getByTestId('merchant-form-name').fill('Shop Seven');
    await form.getByTestId('merchant-form-account').fill('shop7');
    await form.getByTestId('merchant-form-password').fill('shop2024');
    await admin.getByTestId('merchant-form-submit').click();
    const secret = (await admin.getByTestId('merchant-secret-value').textContent())!.trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const merchantNo = (await admin.getByTestId('merchant-secret-merchantno').textContent())!.trim();
    await admin.getByTestId('merchant-secret-close').click();
    const merchants = admin.getByTestId('merchant-list');
    await rowOf(merchants, merchantNo).waitFor();

    // Its fee for UPI collection: 2.5 %.
    await admin.getByTestId(`merchant-products-${merchantNo}`).click();
    await admin.getByTestId('party-product-edit-1001').click();
    await admin.getByTestId('user-product-form-fee-rate').fill('2.5');
    await admin.getByTestId('user-product-form-submit').click();
    await admin.getByTestId('party-products').locator('tr', { hasText: '2.50%' }).first().waitFor();
    await admin.keyboard.press('Escape');

    // A supplier, and a deposit proposal for it (the second-level password is asked for).
    await admin.goto(url('/supplier/list'));
    await admin.getByTestId('supplier-create').click();
    const supplierForm = admin.getByTestId('supplier-form');
    await supplierForm.getByTestId('supplier-form-name').fill('Supplier Seven');
    await supplierForm.getByTestId('supplier-form-account').fill('sup7');
    await supplierForm.getByTestId('supplier-form-password').fill('sup2024a');
    await admin.locator('.ant-modal', { has: supplierForm }).getByRole('button', { name: 'Save' }).click();
    const suppliers = admin.getByTestId('supplier-list');
    const supplierRow = rowOf(suppliers, 'sup7');
    await supplierRow.waitFor();
    // Edit and products are the row's buttons; the proposals its proposalKinds allow are in its menu,
    // and the second-level password is asked before the form opens.
    await admin.getByTestId('supplier-more-sup7').click();
    await clickMenuItem(admin, 'supplier-propose-deposit-sup7');
    await secondLevel(admin);
    await admin.getByTestId('balance-propose-amount').fill('1,000');
    await admin.getByTestId('balance-propose-note').fill('first deposit');
    await admin.getByTestId('balance-propose-submit').click();
    const pending = admin.getByTestId('pending-proposals-supplier');
    const proposal = rowOf(pending, 'first deposit');
    await proposal.waitFor();
    // The proposer may not approve it: a different staff account must.
    expect(await proposal.locator('[data-testid^="proposal-approve-"]').isDisabled()).toBe(true);
    expect(await supplierRow.textContent()).toContain('0.00');

    const superAdmin = await suite.newPage('en-US');
    await signIn(superAdmin, suite.server.url, 'superadmin', secretOf('superadmin'));
    await superAdmin.goto(url('/supplier/list'));
    const toApprove = rowOf(superAdmin.getByTestId('pending-proposals-supplier'), 'first deposit');
    await toApprove.locator('[data-testid^="proposal-approve-"]').click();
    await confirmPopup(superAdmin);
    await secondLevel(superAdmin);
    // The toast says how it ended: a refusal fails here with the server's text, not as a row that stays.
    const outcome = superAdmin
      .locator('.ant-message-notice')
      .filter({ hasText: /Approved and posted|Failed:/ })
      .first();
    await outcome.waitFor({ timeout: 60_000 });
    expect(await outcome.textContent()).toContain('Approved and posted');
    await toApprove.waitFor({ state: 'detached', timeout: 60_000 });
    await expect
      .poll(async () => rowOf(superAdmin.getByTestId('supplier-list'), 'sup7').textContent())
      .toContain('1,000.00');

    // The fund record that explains the balance: deposit, 0.00 -> 1,000.00.
    await superAdmin.goto(url('/fundRecord/fundRecordAdmin'));
    const record = rowOf(superAdmin.getByTestId('fund-records'), 'first deposit');
    await record.waitFor();
    const text = (await record.textContent()) ?? '';
    for (const part of ['Supplier Seven', 'Deposit', '1,000.00', '0.00']) expect(text).toContain(part);

    // The merchant and the deposit are in the audit trail, and the ledger still balances.
    const check = await apiCall(
      suite.server.url,
      endpoints.ledger.ledgerCheck,
      {},
      await apiLogin(suite.server.url, 'superadmin', secretOf('superadmin')),
    );
    expect(check.data).toEqual({ ok: true, violations: [] });
    await admin.context().close();
    await superAdmin.context().close();
  });

  it('supplier1 creates an agent; a commission above its own is refused with a clear text, a lower one is saved', async () => {
    const page = await suite.newPage('en-US');
    await signIn(page, suite.server.url, 'supplier1', secretOf('supplier1'));
    await page.goto(url('/supplier-proxy'));
    await page.getByTestId('agent-create').click();
    const form = page.getByTestId('agent-form');
    await form.getByTestId('agent-form-account').fill('agent7');
    await form.getByTestId('agent-form-nickname').fill('Agent Seven');
    await form.getByTestId('agent-form-password').fill('agent2024');
    await form.getByTestId('agent-form-name').fill('Agent Seven');
    await page.locator('.ant-modal', { has: form }).getByRole('button', { name: 'Save' }).click();
    const agents = page.getByTestId('agent-list');
    await rowOf(agents, 'agent7').waitFor();

    await page.getByTestId('agent-commission-agent7').click();
    const commission = page.getByTestId('agent-commission-form');
    await commission.waitFor();
    // supplier1 earns 3.00 % on UPI collection (demo): the agent may have at most that.
    await chooseOption(page, commission.getByTestId('agent-commission-product'), 'UPI collection');
    await expect.poll(() => commission.getByTestId('agent-commission-max').textContent()).toContain('3.00%');
    await commission.getByTestId('agent-commission-rate').fill('5');
    const modal = page.locator('.ant-modal', { has: commission });
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByTestId('agent-commission-error').textContent()).toContain('3.00%');

    await commission.getByTestId('agent-commission-rate').fill('2.5');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.waitFor({ state: 'detached' });

    const auth = await apiLogin(suite.server.url, 'supplier1', secretOf('supplier1'));
    const agentList = await apiCall(suite.server.url, endpoints.users.getSupplierProxyList, { pageIndex: 1 }, auth);
    const agent = agentList.data.list.find((a: { account: string }) => a.account === 'agent7');
    const rates = await apiCall(
      suite.server.url,
      endpoints.suppliers.getAgentCommissions,
      { agentId: agent.supplierId },
      auth,
    );
    expect(rates.data.find((r: { productId: number }) => r.productId === 1001)).toMatchObject({ agentRate: 250 });
    await page.context().close();
  });

  it('merchant1 reads its fund records in three languages, and the CSV export matches the totals row', async () => {
    const page = await suite.newPage('en-US');
    await signIn(page, suite.server.url, 'merchant1', secretOf('merchant1'));
    await page.goto(url('/fundRecord/fundRecord'));
    const list = page.getByTestId('fund-records');
    const opening = rowOf(list, 'opening balance (demo)');
    await opening.waitFor();
    expect(await opening.textContent()).toContain('5,000.00');
    expect(await opening.textContent()).toContain('Manual adjustment');

    // The column "balance after" and the type "manual adjustment" in each language.
    for (const [label, balanceAfter, manualAdjustment] of [
      ['简体中文', '变动后余额', '人工调账'],
      ['繁體中文', '異動後餘額', '人工調帳'],
    ] as const) {
      await chooseLanguage(page, label);
      await list.locator('th', { hasText: balanceAfter }).waitFor();
      await expect.poll(() => opening.textContent()).toContain(manualAdjustment);
      expect(await opening.textContent()).toContain('5,000.00');
    }

    // The export is the filtered set: its amounts sum to the totals row.
    const total = (await page.getByTestId('list-total-amount').textContent())!.replace(/[^0-9.-]/g, '');
    const href = await page.getByTestId('export-csv').getAttribute('href');
    const res = await page.request.get(url(href!.replace(suite.server.url, '')));
    expect(res.status()).toBe(200);
    const { rows, sum } = csvSum(await res.text(), 'amount');
    expect(rows).toBeGreaterThan(0);
    expect(sum).toBe(majorToMinor(total));
    // Only its own: another party's entries never reach a merchant's export.
    expect(await res.text()).not.toContain('Supplier');
    await page.context().close();
  });
});
