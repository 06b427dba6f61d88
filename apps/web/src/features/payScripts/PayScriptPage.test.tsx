import type { PayScriptRow, PayScriptVersion, Role } from '@paydesk/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { clearToken2, setToken2 } from '../../shared/api/session-storage';
import { ok, pageOf, renderPage, stubServer, testUser } from '../../test/renderPage';
import PayScriptPage from './PayScriptPage';

const PAGE = '/system/dynamicPayScript';
const LIST = '/v1.0/dynamicPayScript/getList';
const VERSIONS = '/v1.0/dynamicPayScript/getVersions';
const TEST_RUN = '/v1.0/dynamicPayScript/testRun';
const SAVE = '/v1.0/dynamicPayScript/saveVersion';
const CREATE = '/v1.0/dynamicPayScript/create';
const ACTIVATE = '/v1.0/dynamicPayScript/activate';
const PRODUCTS = '/v1.0/dynamicPayScript/setProducts';

const ROW: PayScriptRow = {
  id: 1,
  name: 'UPI gateway',
  activeVersion: 2,
  latestVersion: 3,
  hosts: ['api.gateway.example'],
  productIds: [1001],
  updatedAt: '2026-11-27T10:00:00.000Z',
  updatedBy: 'support',
};
const version = (v: number, active: boolean): PayScriptVersion => ({
  version: v,
  code: `function render(o) { return { instructions: 'v${v} ' + o.orderCode }; }`,
  hosts: ['api.gateway.example'],
  active,
  createdAt: '2026-11-27T09:00:00.000Z',
  createdBy: 'support',
});

let server: ReturnType<typeof stubServer>;
beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(async () => {
  await act(() => i18next.changeLanguage('en-US'));
  server = stubServer({
    [LIST]: pageOf([ROW]),
    [VERSIONS]: ok({ list: [version(3, false), version(2, true), version(1, false)] }),
  });
  setToken2('t2');
});
afterEach(() => {
  clearToken2();
  vi.unstubAllGlobals();
});

const renderAt = (path: string, access: Role = 'superAdmin') =>
  renderPage(<PayScriptPage />, path, testUser({ access }));

describe.each(['zh-CN', 'zh-TW', 'en-US'] as const)('PayScriptPage (%s)', (lang) => {
  it('lists the scripts with their versions, hosts and products, and says what a script is', async () => {
    await act(() => i18next.changeLanguage(lang));
    renderAt(PAGE);
    const list = await screen.findByTestId('payscript-list');
    expect(await within(list).findByText('UPI gateway')).toBeTruthy();
    expect(within(list).getByTestId('payscript-active-1').textContent).toBe('v2');
    expect(within(list).getByText('api.gateway.example')).toBeTruthy();
    const product = { 'zh-CN': 'UPI 代收', 'zh-TW': 'UPI 代收', 'en-US': 'UPI collection' }[lang];
    expect(within(list).getByText(product)).toBeTruthy();
    const intro = screen.getByTestId('payscript-intro').textContent ?? '';
    expect(intro).toContain('render(order)');
    expect(intro).toContain('500');
  });
});

describe('the script list', () => {
  it('exports the filtered scripts as CSV, also on the read-only route', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt(`${PAGE}/readonly`, 'technicalMaintenance');
    await within(await screen.findByTestId('payscript-list')).findByText('UPI gateway');
    await user.type(within(screen.getByTestId('list-filters')).getByRole('textbox'), 'UPI');
    await user.click(screen.getByTestId('list-search'));
    await waitFor(() => expect(server.sent(LIST).at(-1)!.url).toContain('name=UPI'));
    const exported = screen.getByTestId('export-csv').getAttribute('href') ?? '';
    expect(exported).toContain('/v1.0/dynamicPayScript/export');
    expect(exported).toContain('name=UPI');
  });
});

describe('test run', () => {
  it('runs the chosen version on the sample order and shows the result, the duration and the calls', async () => {
    server.answers.set(
      TEST_RUN,
      ok({
        recordId: 7,
        version: 2,
        ok: true,
        output: { payUrl: 'upi://pay?pa=x@bank' },
        error: null,
        durationMs: 42,
        fetches: [{ url: 'https://api.gateway.example/link', method: 'GET', status: 200, durationMs: 30, error: null }],
        logs: ['rendering'],
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderAt(PAGE);
    await user.click(await screen.findByTestId('payscript-test-1'));
    const input = (await screen.findByTestId('payscript-run-input')) as HTMLTextAreaElement;
    expect(JSON.parse(input.value)).toMatchObject({ orderCode: expect.any(String), amount: 10_000, currency: 'INR' });
    await user.click(screen.getByTestId('payscript-run'));
    const result = await screen.findByTestId('payscript-result');
    expect(within(result).getByTestId('payscript-result-outcome').textContent).toBe('OK');
    expect(within(result).getByTestId('payscript-result-duration').textContent).toBe('42 ms');
    expect(within(result).getByTestId('payscript-result-output').textContent).toContain('upi://pay?pa=x@bank');
    expect(within(result).getByTestId('payscript-result-fetches').textContent).toContain(
      'https://api.gateway.example/link',
    );
    expect(within(result).getByTestId('payscript-result-logs').textContent).toBe('rendering');
    expect(server.sent(TEST_RUN)[0]?.body).toMatchObject({
      id: 1,
      version: 2,
      kind: 'render',
      input: { amount: 10_000 },
    });
  });

  it('a parse run sends the notification sample; an error shows what the script did wrong', async () => {
    server.answers.set(
      TEST_RUN,
      ok({
        recordId: 8,
        version: 2,
        ok: false,
        output: null,
        error: 'the script used more than 500 ms of CPU time',
        durationMs: 503,
        fetches: [],
        logs: [],
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderAt(PAGE);
    await user.click(await screen.findByTestId('payscript-test-1'));
    await user.click(await screen.findByText('Notification parse'));
    await user.click(screen.getByTestId('payscript-run'));
    expect((await screen.findByTestId('payscript-result-error')).textContent).toBe(
      'the script used more than 500 ms of CPU time',
    );
    expect(screen.getByTestId('payscript-result-outcome').textContent).toBe('Failed');
    expect(server.sent(TEST_RUN)[0]?.body).toMatchObject({
      kind: 'parse',
      input: { headers: expect.any(Object), body: expect.any(String) },
    });
  });

  it('input that is not JSON is not sent', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt(PAGE);
    await user.click(await screen.findByTestId('payscript-test-1'));
    const input = await screen.findByTestId('payscript-run-input');
    fireEvent.change(input, { target: { value: '{ not json' } });
    await user.click(screen.getByTestId('payscript-run'));
    expect(await screen.findByText('Not valid JSON')).toBeTruthy();
    expect(server.sent(TEST_RUN)).toHaveLength(0);
  });
});

describe('changes', () => {
  it('edit saves a new version from the latest code', async () => {
    server.answers.set(SAVE, ok({ ...ROW, latestVersion: 4 }));
    const user = userEvent.setup({ delay: null });
    renderAt(PAGE);
    await user.click(await screen.findByTestId('payscript-edit-1'));
    const code = (await screen.findByTestId('payscript-editor-code')) as HTMLTextAreaElement;
    expect(code.value).toContain("'v3 '");
    fireEvent.change(code, { target: { value: 'function render() { return { instructions: "v4" }; }' } });
    await user.click(screen.getByTestId('payscript-editor-activate'));
    await user.click(screen.getByTestId('payscript-editor-save'));
    expect(await screen.findByText('Version 4 saved')).toBeTruthy();
    expect(server.sent(SAVE)[0]?.body).toEqual({
      id: 1,
      name: 'UPI gateway',
      hosts: ['api.gateway.example'],
      code: 'function render() { return { instructions: "v4" }; }',
      activate: true,
    });
  });

  it('create sends the name, hosts and code; a host with a scheme is refused before sending', async () => {
    server.answers.set(CREATE, ok({ ...ROW, id: 2, name: 'Kenya' }));
    const user = userEvent.setup({ delay: null });
    renderAt(PAGE, 'technicalSupport');
    await user.click(await screen.findByTestId('payscript-new'));
    await user.type(await screen.findByTestId('payscript-editor-name'), 'Kenya');
    const hosts = within(screen.getByTestId('payscript-editor-hosts')).getByRole('combobox');
    await user.type(hosts, 'https://bad.example{enter}');
    fireEvent.change(screen.getByTestId('payscript-editor-code'), { target: { value: 'function render() {}' } });
    await user.click(screen.getByTestId('payscript-editor-save'));
    expect(await screen.findByText('Not a host name: enter only the host, e.g. api.gateway.example')).toBeTruthy();
    expect(server.sent(CREATE)).toHaveLength(0);
    await user.click(within(screen.getByTestId('payscript-editor-hosts')).getByLabelText('close'));
    await user.type(hosts, 'mpesa.example{enter}');
    await user.click(screen.getByTestId('payscript-editor-save'));
    expect(await screen.findByText('Pay script Kenya created')).toBeTruthy();
    expect(server.sent(CREATE)[0]?.body).toEqual({
      name: 'Kenya',
      hosts: ['mpesa.example'],
      code: 'function render() {}',
    });
  });

  it('activates an older version after asking', async () => {
    server.answers.set(ACTIVATE, ok({ ...ROW, activeVersion: 1 }));
    const user = userEvent.setup({ delay: null });
    renderAt(PAGE);
    await user.click(await screen.findByTestId('payscript-more-1'));
    await user.click(await screen.findByTestId('payscript-versions-1'));
    const versions = await screen.findByTestId('payscript-versions');
    await within(versions).findByText('Active');
    expect(within(versions).queryByTestId('payscript-activate-2')).toBeNull();
    await user.click(within(versions).getByTestId('payscript-activate-1'));
    // antd writes a confirmation's title twice (the visible one, and the dialog's name).
    expect(await screen.findAllByText('Activate version 1? Real payer pages will run it.')).not.toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Version 1 is active')).toBeTruthy();
    expect(server.sent(ACTIVATE)[0]?.body).toEqual({ id: 1, version: 1 });
  });

  it('sets the products that use the script', async () => {
    server.answers.set(PRODUCTS, ok({ ...ROW, productIds: [] }));
    const user = userEvent.setup({ delay: null });
    renderAt(PAGE);
    await user.click(await screen.findByTestId('payscript-more-1'));
    await user.click(await screen.findByTestId('payscript-products-1'));
    const select = await screen.findByTestId('payscript-products-select');
    await user.click(within(select).getByLabelText('close'));
    await user.click(screen.getByTestId('payscript-products-save'));
    expect(await screen.findByText('The products using this script are saved')).toBeTruthy();
    expect(server.sent(PRODUCTS)[0]?.body).toEqual({ id: 1, productIds: [] });
  });
});

describe('read-only', () => {
  it('technical maintenance on the read-only route sees scripts and versions, and nothing that changes them', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt(`${PAGE}/readonly`, 'technicalMaintenance');
    expect(await screen.findByText('UPI gateway')).toBeTruthy();
    expect(screen.queryByTestId('payscript-new')).toBeNull();
    expect(screen.queryByTestId('payscript-edit-1')).toBeNull();
    expect(screen.queryByTestId('payscript-test-1')).toBeNull();
    expect(screen.queryByTestId('payscript-products-1')).toBeNull();
    await user.click(screen.getByTestId('payscript-versions-1'));
    const versions = await screen.findByTestId('payscript-versions');
    await within(versions).findByText('Active');
    expect(within(versions).queryByTestId('payscript-activate-1')).toBeNull();
    await waitFor(() => expect(server.sent(VERSIONS).length).toBeGreaterThan(0));
  });
});
