import { endpoints, MAX_VIEW_NAME, type SavedView } from '@paydesk/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Flex, Form, Input, Modal, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errorText';
import { call } from '../api/http';
import type { Filters } from './types';

export interface SavedViewsProps {
  /** The page's route name. */
  viewKey: string;
  userId: number;
  /** The form's filters as they would be sent, or null when the form has errors (shown by the form). */
  currentFilters(): Promise<Filters | null>;
  /** Fill the form with a view's filters and run the query. */
  onApply(filters: SavedView['filters']): void;
}

/** Saved filter views of one page (DESIGN section 3): pick one to apply it, save the form as one, delete. */
export function SavedViews(props: SavedViewsProps) {
  const { t, i18n } = useTranslation('common');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<number | null>(null);
  /** The filters being saved and the name the dialog starts with (the selected view's: overwrite it). */
  const [saving, setSaving] = useState<{ filters: Filters; name: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [nameForm] = Form.useForm<{ name: string }>();
  /** Views load when the user first opens the select: a list page costs no extra request otherwise. */
  const [wanted, setWanted] = useState(false);
  const queryKey = ['views', props.viewKey, props.userId];
  const views = useQuery({
    queryKey,
    queryFn: () => call(endpoints.views.getList, { page: props.viewKey }),
    enabled: wanted,
  });
  const list = views.data ?? [];
  const fail = (error: unknown) => void message.error(errorText(i18n, error));

  const remove = async (id: number) => {
    try {
      await call(endpoints.views.delete, { id });
      if (selected === id) setSelected(null);
      void message.success(t('list.viewDeleted'));
      await queryClient.invalidateQueries({ queryKey });
    } catch (error) {
      fail(error);
    }
  };

  const openSave = async () => {
    const filters = await props.currentFilters();
    if (!filters) return;
    setSaving({ filters, name: list.find((v) => v.id === selected)?.name ?? '' });
  };

  const save = async ({ name }: { name: string }) => {
    if (!saving) return;
    setBusy(true);
    try {
      const view = await call(endpoints.views.save, {
        page: props.viewKey,
        name: name.trim(),
        filters: saving.filters as SavedView['filters'],
      });
      setSaving(null);
      setSelected(view.id);
      setWanted(true);
      void message.success(t('list.viewSaved'));
      await queryClient.invalidateQueries({ queryKey });
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {/* Its own Space: the list's toolbar spaces this component as one item. */}
      <Space size={8}>
        <Select<number>
          data-testid="list-views"
          aria-label={t('list.views')}
          className="list-views"
          style={{ minWidth: 180 }}
          placeholder={t('list.views')}
          allowClear
          loading={views.isFetching}
          value={selected ?? undefined}
          options={list.map((v) => ({ value: v.id, label: v.name }))}
          notFoundContent={
            views.isError ? t('list.loadFailed', { message: errorText(i18n, views.error) }) : t('list.noViews')
          }
          onOpenChange={(open) => {
            if (open) setWanted(true);
          }}
          onChange={(id) => {
            setSelected(id ?? null);
            const view = list.find((v) => v.id === id);
            if (view) props.onApply(view.filters);
          }}
          optionRender={(option) => (
            <Flex justify="space-between" align="center" gap={8} data-testid={`list-view-${option.value}`}>
              <span>{option.label}</span>
              <Button
                size="small"
                type="link"
                danger
                data-testid={`list-view-delete-${option.value}`}
                onMouseDown={(e) => e.stopPropagation()}
                onClick={(e) => {
                  e.stopPropagation();
                  void remove(Number(option.value));
                }}
              >
                {t('action.delete')}
              </Button>
            </Flex>
          )}
        />
        <Button data-testid="list-view-save" onClick={() => void openSave()}>
          {t('list.saveView')}
        </Button>
      </Space>
      <Modal
        open={saving !== null}
        title={t('list.saveView')}
        okText={t('action.save')}
        cancelText={t('action.cancel')}
        confirmLoading={busy}
        onOk={() => nameForm.submit()}
        onCancel={() => setSaving(null)}
        okButtonProps={{ 'data-testid': 'list-view-save-ok' } as Record<string, string>}
        destroyOnHidden
      >
        <Form
          form={nameForm}
          layout="vertical"
          initialValues={{ name: saving?.name ?? '' }}
          onFinish={(v) => void save(v)}
          data-testid="list-view-form"
        >
          <Form.Item
            name="name"
            label={t('list.viewName')}
            rules={[
              {
                validator: (_, v: string | undefined) =>
                  v && v.trim().length > 0 && v.trim().length <= MAX_VIEW_NAME
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('list.viewNameInvalid', { max: MAX_VIEW_NAME }))),
              },
            ]}
          >
            <Input maxLength={MAX_VIEW_NAME} data-testid="list-view-name" autoFocus />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
