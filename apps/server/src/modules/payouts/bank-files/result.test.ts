import { BANK_RESULT_MAX_BYTES, Code } from '@paydesk/contract';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { BankFileError } from './errors.js';
import { exportBatchFile } from './export.js';
import { parseResultFile, type ResultRow } from './result.js';
import type { BatchForExport, PayoutRow } from './template.js';

const batch: BatchForExport = {
  id: 7,
  payoutAccount: { accountNumber: '000405001234', ifsc: 'ICIC0000004', name: 'PayDesk Payouts' },
  payoutDate: '2025-03-05',
};

const IFSCS = ['SBIN0001234', 'HDFC0000240', 'ICIC0000004', 'UTIB0000123'];

/** A full batch: amounts across every mode band, payees at several banks, a comma in some names. */
function payouts(count: number): PayoutRow[] {
  return Array.from({ length: count }, (_, i) => ({
    payoutCode: `P2503051010${String(i).padStart(10, '0')}`,
    amount: 100 + ((i * 7_919_113) % 30_000_000),
    payeeName: i % 3 === 0 ? `Payee, No ${i}` : `Payee ${i}`,
    cardNumber: String(10_000_000_000 + i),
    ifscCode: IFSCS[i % IFSCS.length]!,
    bankName: 'Some Bank',
    bankBranch: 'Main Branch',
    remark: `batch 7 row ${i}`,
  }));
}
const expectedOf = (rows: PayoutRow[]) => new Map(rows.map((r) => [r.payoutCode, r.amount]));

const csvFile = (text: string, fileName = 'result.csv', mimeType = 'text/csv') => ({
  fileName,
  mimeType,
  body: Buffer.from(text, 'utf8'),
});

/** The bank's verdict on the i-th payout in the round trips: even rows paid, odd rows failed. */
const paid = (i: number) => i % 2 === 0;

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof BankFileError)
      return { code: error.code, reason: error.reason, detail: error.data?.issues?.[0]?.message };
    throw error;
  }
  throw new Error('not refused');
}

describe('result file round trip', () => {
  it('ICICI: the 500-row export, answered by a status report with the upload’s columns, settles 500 payouts', () => {
    const rows = payouts(500);
    const exported = exportBatchFile('icici-cib-bulk', batch, rows).body.toString();
    const [header, ...records] = parse(exported) as string[][];
    const report = [
      ['Transaction Status Report for file ICICI_CIB_7_20250305.csv'],
      [...header!, 'Status', 'UTR No', 'Reason'],
      ...records.map((r, i) => [
        ...r,
        paid(i) ? 'Paid' : 'Failed',
        paid(i) ? `ICICR5${i}` : '',
        paid(i) ? '' : 'Account closed',
      ]),
    ];
    const text = report.map((cells) => cells.map((c) => (/[",]/.test(c) ? `"${c}"` : c)).join(',')).join('\r\n');

    const result = parseResultFile('icici-cib-bulk', csvFile(text), expectedOf(rows));

    expect(result.rows).toHaveLength(500);
    result.rows.forEach((row, i) => {
      expect(row).toEqual(
        paid(i)
          ? { line: i + 3, payoutCode: rows[i]!.payoutCode, outcome: 'completed', utr: `ICICR5${i}` }
          : { line: i + 3, payoutCode: rows[i]!.payoutCode, outcome: 'failed', reason: 'Account closed' },
      );
    });
  });

  it('HDFC: the 500-row export, answered by the positional reverse file, settles 500 payouts', () => {
    const rows = payouts(500);
    const exported = exportBatchFile('hdfc-enet-vendor', batch, rows).body.toString();
    const reverse = exported
      .trimEnd()
      .split('\r\n')
      .map((record, i) => {
        const f = record.split(',');
        // Customer reference, name, account, IFSC, account type, amount, value date, bank reference, status, reason.
        return [
          f[13],
          f[4],
          f[2],
          f[24],
          '10',
          f[3],
          '20250305',
          paid(i) ? `HDFCN${i}` : '',
          paid(i) ? 'E' : 'R',
          paid(i) ? '' : 'INVALID ACCOUNT',
        ].join(',');
      })
      .join('\n');

    const result = parseResultFile('hdfc-enet-vendor', csvFile(reverse), expectedOf(rows));

    expect(result.rows).toHaveLength(500);
    expect(result.rows.filter((r) => 'outcome' in r && r.outcome === 'completed')).toHaveLength(250);
    result.rows.forEach((row, i) => {
      expect(row).toEqual(
        paid(i)
          ? { line: i + 1, payoutCode: rows[i]!.payoutCode, outcome: 'completed', utr: `HDFCN${i}` }
          : { line: i + 1, payoutCode: rows[i]!.payoutCode, outcome: 'failed', reason: 'INVALID ACCOUNT' },
      );
    });
  });
});

describe('result file rows', () => {
  const expected = new Map([
    ['P1', 150_000],
    ['P2', 2_500_000],
    ['P3', 500],
    ['P4', 200],
    ['P5', 300],
    ['P6', 400],
    ['P7', 700],
  ]);
  const byLine = (rows: ResultRow[]) => Object.fromEntries(rows.map(({ line, ...rest }) => [line, rest]));

  it('ICICI: malformed, unknown, duplicate and mismatched rows are reported by line, the good rows settle', () => {
    const text = [
      'Transaction Status Report', // 1: a title line above the header
      '', // 2
      'Add Details 1,Amt,Status,UTR No,Reason', // 3
      'P1,"1,500.00",Paid,UTR0001,', // 4: thousands separators are read
      '', // 5
      'P2,25000.00,Failed,,"Account', // 6: a reason over two lines
      'closed"', // 7
      'P3,5.00,Paid', // 8: cells missing
      'P9,1.00,Paid,UTR0009,', // 9: no such payout in the batch
      'P1,1500.00,Paid,UTR0001,', // 10: P1 again, saying the same
      'P4,2.50,Paid,UTR0004,', // 11: another amount
      'P5,3.00,Pending,,', // 12: neither paid nor failed
      'P6,4.00,Paid,,', // 13: paid without UTR
      ',1.00,Paid,UTR0000,', // 14: no reference
      'P7,seven,Paid,UTR0007,', // 15: no amount
      'Total,25015.00,,,', // 16: a total line
    ].join('\r\n');

    const rows = byLine(parseResultFile('icici-cib-bulk', csvFile(text), expected).rows);

    expect(rows).toEqual({
      4: { payoutCode: 'P1', outcome: 'completed', utr: 'UTR0001' },
      6: { payoutCode: 'P2', outcome: 'failed', reason: 'Account closed' },
      8: { error: 'malformed', detail: '3 cells, the layout reads 5' },
      9: { error: 'unknownPayout', payoutCode: 'P9', detail: 'no payout P9 in this batch' },
      10: { error: 'duplicate', payoutCode: 'P1', detail: 'payout P1 again (first on line 4)' },
      11: { error: 'amountMismatch', payoutCode: 'P4', detail: 'the payout is 2.00, the file says 2.50' },
      12: { error: 'malformed', payoutCode: 'P5', detail: expect.stringContaining('the status "Pending" is neither') },
      13: { error: 'malformed', payoutCode: 'P6', detail: 'a paid row without UTR' },
      14: { error: 'malformed', detail: 'no reference' },
      15: { error: 'malformed', payoutCode: 'P7', detail: 'the amount "seven" is not a number of rupees' },
      16: { error: 'malformed', payoutCode: 'Total', detail: expect.stringContaining('the status "" is neither') },
    });
  });

  it('HDFC: a payout the file both pays and fails is applied by none of its rows', () => {
    const text = [
      'P1,Ravi,123,SBIN0001234,10,1500.00,20250305,N001,E,',
      'P2,Anil,456,SBIN0001234,10,25000.00,20250305,N002,E,',
      'P2,Anil,456,SBIN0001234,10,25000.00,20250305,,R,ACCOUNT CLOSED',
      'P3,Asha,789,SBIN0001234,10,5.00,20250305,N003,X,',
      'P4,Mohan,321,SBIN0001234',
      'P9,Nobody,000,SBIN0001234,10,1.00,20250305,N009,E,',
      'P5,Leela,654,SBIN0001234,10,30.00,20250305,,R,',
    ].join('\n');

    const rows = byLine(parseResultFile('hdfc-enet-vendor', csvFile(text), expected).rows);

    expect(rows).toEqual({
      1: { payoutCode: 'P1', outcome: 'completed', utr: 'N001' },
      2: {
        error: 'duplicate',
        payoutCode: 'P2',
        detail: 'lines 2, 3 say different things of payout P2: none is applied',
      },
      3: {
        error: 'duplicate',
        payoutCode: 'P2',
        detail: 'lines 2, 3 say different things of payout P2: none is applied',
      },
      4: { error: 'malformed', payoutCode: 'P3', detail: 'the status "X" is neither paid (E) nor failed (R)' },
      5: { error: 'malformed', detail: '4 cells, the layout reads 10' },
      6: { error: 'unknownPayout', payoutCode: 'P9', detail: 'no payout P9 in this batch' },
      7: { error: 'amountMismatch', payoutCode: 'P5', detail: 'the payout is 3.00, the file says 30.00' },
    });
  });
});

describe('result file refusals', () => {
  const expected = new Map([['P1', 1500]]);
  const good = 'P1,Ravi,123,SBIN0001234,10,15.00,20250305,N001,E,';

  it("refuses a template that does not read results: 'current template does not support upload details'", () => {
    expect(refusal(() => parseResultFile('sbi-cmp-bulk', csvFile(good), expected))).toMatchObject({
      code: Code.businessRule,
      reason: 'templateWithoutResults',
    });
    expect(refusal(() => parseResultFile('no-such-bank', csvFile(good), expected))).toMatchObject({
      code: Code.invalidInput,
      reason: 'unsupportedTemplate',
    });
  });

  it("refuses what is not a CSV file: 'CSV uploads must be CSV files', 'file type error'", () => {
    const parseAs = (file: ReturnType<typeof csvFile>) =>
      refusal(() => parseResultFile('hdfc-enet-vendor', file, expected));
    expect(parseAs(csvFile(good, 'result.txt', 'text/plain'))).toMatchObject({
      reason: 'notCsv',
      code: Code.invalidInput,
    });
    expect(parseAs(csvFile(good, 'result.csv', 'image/png'))).toMatchObject({ reason: 'notCsv' });
    const latin1 = { fileName: 'result.csv', mimeType: 'text/csv', body: Buffer.from([0x50, 0x31, 0x2c, 0xe9, 0x0a]) };
    expect(parseAs(latin1)).toMatchObject({ reason: 'fileType', detail: expect.stringContaining('UTF-8') });
    const binary = { fileName: 'result.csv', mimeType: 'text/csv', body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00]) };
    expect(parseAs(binary)).toMatchObject({ reason: 'fileType' });
    expect(parseAs(csvFile(`${good}\n\u0000`))).toMatchObject({ reason: 'fileType', detail: 'the file is not text' });
  });

  it("refuses what it cannot split or find its columns in: 'format parsing failed, check the file format'", () => {
    expect(
      refusal(() => parseResultFile('hdfc-enet-vendor', csvFile(`${good}\nP2,"unclosed,1.00`), expected)),
    ).toMatchObject({
      reason: 'parseFailed',
      code: Code.invalidInput,
    });
    expect(
      refusal(() => parseResultFile('icici-cib-bulk', csvFile('Ref,Amount,State\nP1,15.00,Paid'), expected)),
    ).toMatchObject({
      reason: 'parseFailed',
      detail: 'no header row naming the columns "Add Details 1", "Amt", "Status", "UTR No", "Reason"',
    });
  });

  it('refuses a file too large, with more rows than a batch, or with no row', () => {
    const huge = csvFile(`${good}\n${'#'.repeat(BANK_RESULT_MAX_BYTES)}`);
    expect(refusal(() => parseResultFile('hdfc-enet-vendor', huge, expected))).toMatchObject({
      reason: 'resultFileTooLarge',
    });
    const many = csvFile(Array(501).fill(good).join('\n'));
    expect(refusal(() => parseResultFile('hdfc-enet-vendor', many, expected))).toMatchObject({
      reason: 'resultFileTooManyRows',
      detail: '501 data rows',
    });
    const fiveHundred = parseResultFile('hdfc-enet-vendor', csvFile(Array(500).fill(good).join('\n')), expected);
    expect(fiveHundred.rows).toHaveLength(500);
    const headerOnly = csvFile('Add Details 1,Amt,Status,UTR No,Reason\r\n\r\n,,,,\r\n');
    expect(refusal(() => parseResultFile('icici-cib-bulk', headerOnly, expected))).toMatchObject({
      reason: 'resultFileEmpty',
    });
    expect(refusal(() => parseResultFile('hdfc-enet-vendor', csvFile(''), expected))).toMatchObject({
      reason: 'resultFileEmpty',
    });
  });
});
