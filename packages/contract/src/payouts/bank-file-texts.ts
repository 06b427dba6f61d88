import type { LocalTexts, ReasonTexts } from '../common/server-texts.js';

/**
 * Bank bulk-payment files of batch payouts (DESIGN section 7, spec sections 2, 5 and 8): the templates
 * staff choose when a batch is exported, and the texts of reading the bank's result file back. The
 * server's templates live in apps/server/src/modules/payouts/bank-files/; their ids, names and texts
 * live here so the console lists and translates them without a copy.
 */

/** The most payouts a batch holds (spec section 9), hence the most data rows of a result file. */
export const BANK_RESULT_MAX_ROWS = 500;
/** The largest result file read: 500 rows of a bank's report stay far below it. */
export const BANK_RESULT_MAX_BYTES = 1_048_576;

/** The bank file templates, by id (what a batch stores). */
export const BANK_TEMPLATE_IDS = ['icici-cib-bulk', 'hdfc-enet-vendor', 'sbi-cmp-bulk'] as const;
export type BankTemplateId = (typeof BANK_TEMPLATE_IDS)[number];

export const isBankTemplateId = (value: unknown): value is BankTemplateId =>
  typeof value === 'string' && (BANK_TEMPLATE_IDS as readonly string[]).includes(value);

/** A template's name as the template list shows it. */
export const BANK_TEMPLATE_NAMES: Readonly<Record<BankTemplateId, LocalTexts>> = {
  'icici-cib-bulk': {
    'zh-CN': 'ICICI 银行 CIB 批量付款（CSV，含表头）',
    'zh-TW': 'ICICI 銀行 CIB 批次付款（CSV，含表頭）',
    'en-US': 'ICICI Bank CIB bulk payment (CSV with header)',
  },
  'hdfc-enet-vendor': {
    'zh-CN': 'HDFC 银行 ENet 供应商付款（CSV，无表头）',
    'zh-TW': 'HDFC 銀行 ENet 供應商付款（CSV，無表頭）',
    'en-US': 'HDFC Bank ENet vendor payment (CSV without header)',
  },
  'sbi-cmp-bulk': {
    'zh-CN': '印度国家银行 CMP 批量上传（竖线分隔，不支持结果上传）',
    'zh-TW': '印度國家銀行 CMP 批次上傳（直線分隔，不支援結果上傳）',
    'en-US': 'State Bank of India CMP bulk upload (pipe-delimited, no result upload)',
  },
};

/**
 * Refusals of a whole bank file (`data.reason`), registered in REASON_TEXTS. The checks of the file
 * itself answer the upload's reasons there: notCsv (the name or the declared type is not CSV),
 * fileType (not text), parseFailed (bad quoting, no header row with the template's columns).
 */
export const BANK_FILE_REASON_TEXTS = {
  unsupportedTemplate: {
    'zh-CN': '不支持的模板类型',
    'zh-TW': '不支援的範本類型',
    'en-US': 'Unsupported template type',
  },
  templateWithoutResults: {
    'zh-CN': '当前模板不支持上传明细',
    'zh-TW': '目前範本不支援上傳明細',
    'en-US': 'Current template does not support upload details',
  },
  resultFileTooLarge: {
    'zh-CN': `结果文件超过 ${BANK_RESULT_MAX_BYTES / 1_048_576} MiB`,
    'zh-TW': `結果檔案超過 ${BANK_RESULT_MAX_BYTES / 1_048_576} MiB`,
    'en-US': `The result file is larger than ${BANK_RESULT_MAX_BYTES / 1_048_576} MiB`,
  },
  resultFileTooManyRows: {
    'zh-CN': `结果文件超过 ${BANK_RESULT_MAX_ROWS} 行数据，一个批次最多 ${BANK_RESULT_MAX_ROWS} 笔代付`,
    'zh-TW': `結果檔案超過 ${BANK_RESULT_MAX_ROWS} 列資料，一個批次最多 ${BANK_RESULT_MAX_ROWS} 筆代付`,
    'en-US': `The result file has more than ${BANK_RESULT_MAX_ROWS} data rows; a batch holds at most ${BANK_RESULT_MAX_ROWS} payouts`,
  },
  resultFileEmpty: {
    'zh-CN': '结果文件没有数据行',
    'zh-TW': '結果檔案沒有資料列',
    'en-US': 'The result file has no data rows',
  },
} as const satisfies Record<string, ReasonTexts>;
export type BankFileReason = keyof typeof BANK_FILE_REASON_TEXTS;

/** Why one row of a result file was not applied (the row's `error`; its `detail` is the server's English). */
export const BANK_RESULT_ROW_ERRORS = ['unknownPayout', 'amountMismatch', 'malformed', 'duplicate'] as const;
export type BankResultRowError = (typeof BANK_RESULT_ROW_ERRORS)[number];

export const BANK_RESULT_ROW_ERROR_TEXTS: Readonly<Record<BankResultRowError, LocalTexts>> = {
  unknownPayout: {
    'zh-CN': '该批次没有此参考号的代付订单',
    'zh-TW': '該批次沒有此參考號的代付訂單',
    'en-US': 'No payout of this batch has this reference',
  },
  amountMismatch: {
    'zh-CN': '金额与代付订单不一致',
    'zh-TW': '金額與代付訂單不一致',
    'en-US': 'The amount differs from the payout’s',
  },
  malformed: {
    'zh-CN': '该行无法读取',
    'zh-TW': '該列無法讀取',
    'en-US': 'The row cannot be read',
  },
  duplicate: {
    'zh-CN': '同一代付订单在文件中出现多次',
    'zh-TW': '同一代付訂單在檔案中出現多次',
    'en-US': 'The payout appears more than once in the file',
  },
};
