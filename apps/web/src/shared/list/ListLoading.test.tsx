import { screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { ok, renderPage, stubServer } from '../../test/renderPage';
import { type ListParams, ListTable, type Page } from './ListTable';

interface Row {
  id: number;
  account: string;
}

beforeAll(() => {
  setupI18n('en-US');
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en-US');
});

/** A list whose first page arrives when the test says so. */
function renderSlowList() {
  stubServer({ '/v1.0/view/getList': ok([]) });
  let answer: (page: Page<Row>) => void = () => undefined;
  const fetchPage = vi.fn(
    (_p: ListParams) =>
      new Promise<Page<Row>>((resolve) => {
        answer = resolve;
      }),
  );
  renderPage(
    <ListTable<Row>
      testId="slow-list"
      queryKey={['slow']}
      rowKey="id"
      fetchPage={fetchPage}
      columns={[{ title: 'Account', dataIndex: 'account' }]}
    />,
    '/home',
  );
  return { answer: (page: Page<Row>) => answer(page), fetchPage };
}

describe('a list while it loads', () => {
  it.each([
    ['wide', false],
    ['phone', true],
  ])('%s: says it is loading, never "no data", until the answer is empty', async (_name, phone) => {
    if (phone) vi.stubGlobal('matchMedia', () => ({ matches: true, addEventListener() {}, removeEventListener() {} }));
    const list = renderSlowList();
    await waitFor(() => expect(list.fetchPage).toHaveBeenCalled());
    expect(await screen.findByText('Loading…')).toBeTruthy();
    expect(screen.queryByText('No data')).toBeNull();

    list.answer({ list: [], total: 0 });
    expect((await screen.findAllByText('No data')).length).toBeGreaterThan(0);
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  it('says so in the reader’s language', async () => {
    await i18next.changeLanguage('zh-CN');
    renderSlowList();
    expect(await screen.findByText('加载中…')).toBeTruthy();
    expect(screen.queryByText('暂无数据')).toBeNull();
  });
});
