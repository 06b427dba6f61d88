import { DeleteOutlined, EditOutlined, PauseOutlined, PlayCircleOutlined } from '@ant-design/icons';
import type { Role } from '@paydesk/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Input, Modal } from 'antd';
import { useState } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import { ApiError, configureHttp } from '../api/http';
import { getToken2, setToken2 } from '../api/session-storage';
import { ListTable } from './ListTable';
import { type RowActionFormProps, type RowActionPanelProps, type RowActions, rowAction } from './rowActions';

interface Row {
  id: number;
  name: string;
  enabled: boolean;
}
const ROWS: Row[] = [
  { id: 1, name: 'alice', enabled: true },
  { id: 2, name: 'bob', enabled: false },
];

function RenameDialog({ row, busy, onSubmit, onClose }: RowActionFormProps<Row, string>) {
  const [name, setName] = useState(row.name);
  return (
    <Modal open title="Rename" onOk={() => onSubmit(name)} onCancel={onClose} okButtonProps={{ loading: busy }}>
      <Input aria-label="New name" value={name} onChange={(e) => setName(e.target.value)} data-testid="rename-name" />
    </Modal>
  );
}

/** A panel: shows the row and changes it by its own call, then reloads the list. */
function NotesPanel({ row, onClose, onDone }: RowActionPanelProps<Row>) {
  return (
    <Modal open title="Notes" footer={null} onCancel={onClose}>
      <span data-testid="notes-of">{row.name}</span>
      <button type="button" data-testid="notes-save" onClick={() => void onDone()}>
        save
      </button>
    </Modal>
  );
}

const run = {
  disable: vi.fn(async (_row: Row) => undefined),
  enable: vi.fn(async (_row: Row) => undefined),
  rename: vi.fn(async (_row: Row, _name: string) => undefined),
  remove: vi.fn(async (_row: Row) => undefined),
};
const ADMINS: Role[] = ['superAdmin', 'admin'];

/** Four actions: two open to customer service, a form that needs token2, one for the super admin only. */
const ACTIONS = [
  rowAction<Row>({
    key: 'disable',
    label: 'common:action.edit',
    success: 'common:list.viewSaved',
    confirm: 'common:tabs.confirmClose',
    icon: <PauseOutlined />,
    roles: [...ADMINS, 'customerService'],
    allowed: (row) => row.enabled,
    run: (row) => run.disable(row),
  }),
  rowAction<Row>({
    key: 'enable',
    label: 'common:action.add',
    success: 'common:list.viewSaved',
    confirm: 'common:tabs.confirmClose',
    icon: <PlayCircleOutlined />,
    roles: [...ADMINS, 'customerService'],
    allowed: (row) => !row.enabled,
    run: (row) => run.enable(row),
  }),
  rowAction<Row, string>({
    key: 'rename',
    label: 'common:action.save',
    success: 'common:list.viewSaved',
    icon: <EditOutlined />,
    roles: ADMINS,
    token2: true,
    allowed: () => true,
    form: RenameDialog,
    run: (row, name) => run.rename(row, name),
  }),
  rowAction<Row>({
    key: 'remove',
    label: 'common:action.delete',
    success: 'common:list.viewDeleted',
    confirm: 'common:tabs.confirmClose',
    icon: <DeleteOutlined />,
    roles: ['superAdmin'],
    danger: true,
    allowed: () => true,
    run: (row) => run.remove(row),
  }),
  rowAction<Row>({
    key: 'notes',
    label: 'common:action.view',
    icon: <EditOutlined />,
    roles: ['merchant'],
    allowed: (row) => row.enabled,
    panel: NotesPanel,
  }),
];

const onDone = vi.fn(async () => undefined);
const CONFIG: RowActions<Row> = {
  actions: ACTIONS,
  testIdPrefix: 'row',
  testIdOf: (row) => String(row.id),
  errorText: (error) => `why: ${error.message}`,
  onDone,
  attrs: (row) => ({ 'data-name': row.name }),
};

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  stubServer({ '/v1.0/view/getList': ok([]) });
  for (const fn of Object.values(run)) fn.mockReset().mockResolvedValue(undefined);
  onDone.mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const renderAs = (access: Role) =>
  renderPage(
    <ListTable<Row>
      testId="test-list"
      queryKey={['rowActions', access]}
      rowKey="id"
      fetchPage={async () => ({ list: ROWS, total: 2 })}
      columns={[{ title: 'Name', dataIndex: 'name', key: 'name' }]}
      actions={CONFIG}
    />,
    '/merchant/list',
    testUser({ access }),
  );

const buttonsOf = (id: number) =>
  within(screen.getByTestId(`row-actions-${id}`))
    .queryAllByRole('button')
    .map((b) => b.getAttribute('data-testid'));

describe('declared row actions', () => {
  it('shows a row the actions its role may take and the row allows: two buttons, the rest in a more menu', async () => {
    const user = userEvent.setup({ delay: null });
    renderAs('superAdmin');
    await screen.findByText('alice');
    expect(buttonsOf(1)).toEqual(['row-disable-1', 'row-rename-1', 'row-more-1']);
    expect(buttonsOf(2)).toEqual(['row-enable-2', 'row-rename-2', 'row-more-2']);
    await user.click(screen.getByTestId('row-more-1'));
    await user.click(await screen.findByTestId('row-remove-1'));
    expect(await screen.findByText('Are you sure to close this page?')).toBeTruthy();
    await user.click(screen.getByTestId('row-ok'));
    await waitFor(() => expect(run.remove).toHaveBeenCalledWith(ROWS[0]));
    expect(await screen.findByText('View deleted')).toBeTruthy();
    expect(onDone).toHaveBeenCalled();
  });

  it('a role sees only the actions open to it, and no actions column when none is', async () => {
    const cs = renderAs('customerService');
    await screen.findByText('alice');
    expect(buttonsOf(1)).toEqual(['row-disable-1']);
    expect(buttonsOf(2)).toEqual(['row-enable-2']);
    expect(screen.getByRole('columnheader', { name: 'Actions' })).toBeTruthy();
    cs.unmount();
    renderAs('technicalMaintenance');
    await screen.findByText('alice');
    expect(screen.queryByTestId('row-actions-1')).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull();
  });

  it('a panel action opens its view of the row by the same rules, and the view reloads the list', async () => {
    const user = userEvent.setup({ delay: null });
    renderAs('merchant');
    await screen.findByText('alice');
    expect(buttonsOf(1)).toEqual(['row-notes-1']);
    expect(buttonsOf(2)).toEqual([]);
    expect(screen.getByTestId('row-notes-1').getAttribute('data-name')).toBe('alice');
    await user.click(screen.getByTestId('row-notes-1'));
    expect((await screen.findByTestId('notes-of')).textContent).toBe('alice');
    await user.click(screen.getByTestId('notes-save'));
    expect(onDone).toHaveBeenCalled();
  });

  it('asks for the second-level password before the form of a token2 action, and opens nothing when refused', async () => {
    const user = userEvent.setup({ delay: null });
    const requestToken2 = vi.fn(async (): Promise<void> => {
      throw new Error('closed');
    });
    configureHttp({ requestToken2 });
    renderAs('admin');
    await user.click(await screen.findByTestId('row-rename-1'));
    await waitFor(() => expect(requestToken2).toHaveBeenCalledTimes(1));
    expect(screen.queryByTestId('rename-name')).toBeNull();

    requestToken2.mockImplementation(async () => setToken2('t2'));
    await user.click(screen.getByTestId('row-rename-1'));
    const name = await screen.findByTestId('rename-name');
    expect(getToken2()).toBe('t2');
    await user.clear(name);
    await user.type(name, 'carol');
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(run.rename).toHaveBeenCalledWith(ROWS[0], 'carol'));
    // token2 held: the next one opens at once.
    await user.click(await screen.findByTestId('row-rename-2'));
    expect(await screen.findByTestId('rename-name')).toBeTruthy();
    expect(requestToken2).toHaveBeenCalledTimes(2);
  });

  it('a refusal is told with the action and the page’s text for it; a form stays open to retry, a confirmation closes', async () => {
    const user = userEvent.setup({ delay: null });
    run.disable.mockRejectedValue(new ApiError(422, 'not now'));
    run.rename.mockRejectedValue(new ApiError(409, 'taken'));
    setToken2('t2');
    renderAs('admin');
    await user.click(await screen.findByTestId('row-disable-1'));
    await user.click(await screen.findByTestId('row-ok'));
    expect(await screen.findByText('Edit failed: why: not now')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('row-ok')).toBeNull());
    await user.click(screen.getByTestId('row-rename-1'));
    await screen.findByTestId('rename-name');
    await user.click(screen.getByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Save failed: why: taken')).toBeTruthy();
    expect(screen.getByTestId('rename-name')).toBeTruthy();
    expect(onDone).not.toHaveBeenCalled();
  });

  it('on a phone the same actions end each card', async () => {
    vi.stubGlobal('matchMedia', () => ({ matches: true, addEventListener() {}, removeEventListener() {} }));
    renderAs('superAdmin');
    const card = await screen.findByTestId('list-card-1');
    expect(within(card).getByTestId('row-disable-1')).toBeTruthy();
    expect(within(card).getByTestId('row-more-1')).toBeTruthy();
  });
});
