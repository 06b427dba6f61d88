import { BANK_TEMPLATE_IDS, BANK_TEMPLATE_NAMES, Code } from '@paydesk/contract';
import { describe, expect, it } from 'vitest';
import { BankFileError } from './errors.js';
import { exportBatchFile } from './export.js';
import type { BatchForExport, PayoutRow } from './template.js';
import { BANK_TEMPLATES, listTemplates } from './templates.js';

/** 20:00 UTC on 4 March is 01:30 on 5 March in India: the bank's day is the 5th. */
const batch: BatchForExport = {
  id: 42,
  payoutAccount: { accountNumber: '000405001234', ifsc: 'ICIC0000004', name: 'PayDesk Payouts' },
  payoutDate: new Date('2025-03-04T20:00:00Z'),
};

/**
 * Three payouts that reach each template's every mode: ₹1,500 to SBI, ₹2,50,000 to HDFC, ₹0.99 to
 * ICICI; a name with a comma and one with an accent and an apostrophe; a remark that would run as a
 * formula, one with quotes and a pipe, an empty one.
 */
const rows: PayoutRow[] = [
  {
    payoutCode: 'P250305101010A0000001',
    amount: 150_000,
    payeeName: 'Sharma, Ravi',
    cardNumber: '12345678901',
    ifscCode: 'SBIN0001234',
    bankName: 'State Bank of India',
    bankBranch: 'Andheri (East)',
    remark: '-2+3 cmd|/C calc',
  },
  {
    payoutCode: 'P250305101010A0000002',
    amount: 25_000_000,
    payeeName: "José D'Souza",
    cardNumber: '5010 0012 3456 78',
    ifscCode: 'hdfc0000240',
    bankName: 'HDFC Bank',
    bankBranch: 'Fort, Mumbai',
    remark: '=HYPERLINK("http://x")',
  },
  {
    payoutCode: 'P250305101010A0000003',
    amount: 99,
    payeeName: 'Anil Kumar',
    cardNumber: '000401000999',
    ifscCode: 'ICIC0000004',
    bankName: 'ICICI Bank',
    bankBranch: 'Nariman Point',
    remark: '',
  },
];

const lines = (...records: string[]) => records.map((r) => `${r}\r\n`).join('');

describe('bank file export', () => {
  it('writes ICICI CIB bulk payment: CSV with header, IMPS below ₹2 lakh, RTGS above, I within ICICI', () => {
    const file = exportBatchFile('icici-cib-bulk', batch, rows);
    expect(file.fileName).toBe('ICICI_CIB_42_20250305.csv');
    expect(file.contentType).toBe('text/csv; charset=utf-8');
    // latin1 shows every byte as one character: a BOM or a non-ASCII byte would show.
    expect(file.body.toString('latin1')).toBe(
      lines(
        'Debit Ac No,Beneficiary Ac No,Beneficiary Name,Amt,Pay Mod,Date,IFSC,Payable Location,Print Location,Bene Mobile No.,Bene email ID,Bene add1,Bene add2,Bene add3,Bene add4,Add Details 1,Add Details 2,Add Details 3,Add Details 4,Add Details 5,Remarks',
        `000405001234,12345678901,"Sharma, Ravi",1500.00,M,05/03/2025,SBIN0001234,,,,,,,,,P250305101010A0000001,State Bank of India,Andheri (East),,,'-2 3 cmd /C calc`,
        `000405001234,50100012345678,Jose D'Souza,250000.00,R,05/03/2025,HDFC0000240,,,,,,,,,P250305101010A0000002,HDFC Bank,"Fort, Mumbai",,,HYPERLINK( http //x )`,
        '000405001234,000401000999,Anil Kumar,0.99,I,05/03/2025,ICIC0000004,,,,,,,,,P250305101010A0000003,ICICI Bank,Nariman Point,,,',
      ),
    );
  });

  it('writes HDFC ENet vendor payment: 28 fields, no header, no comma in any field, NEFT below ₹2 lakh, I within HDFC', () => {
    const file = exportBatchFile('hdfc-enet-vendor', batch, rows);
    expect(file.fileName).toBe('HDFC_ENET_42_20250305.txt');
    expect(file.contentType).toBe('text/plain; charset=utf-8');
    expect(file.body.toString('latin1')).toBe(
      lines(
        "N,,12345678901,1500.00,Sharma Ravi,,,,,,,,,P250305101010A0000001,'-2 3 cmd /C calc,,,,,,,,05/03/2025,,SBIN0001234,State Bank of India,Andheri East,",
        "I,,50100012345678,250000.00,Jose D'Souza,,,,,,,,,P250305101010A0000002,HYPERLINK http //x,,,,,,,,05/03/2025,,HDFC0000240,HDFC Bank,Fort Mumbai,",
        'N,,000401000999,0.99,Anil Kumar,,,,,,,,,P250305101010A0000003,,,,,,,,,05/03/2025,,ICIC0000004,ICICI Bank,Nariman Point,',
      ),
    );
    for (const record of file.body.toString().trimEnd().split('\r\n')) expect(record.split(',')).toHaveLength(28);
  });

  it('writes SBI CMP bulk upload: pipe-delimited, DD-MM-YYYY, DCR within SBI, NEFT, RTGS', () => {
    const file = exportBatchFile('sbi-cmp-bulk', { ...batch, payoutDate: '2025-03-05' }, rows);
    expect(file.fileName).toBe('SBI_CMP_42_20250305.txt');
    expect(file.body.toString('latin1')).toBe(
      lines(
        "DCR|000405001234|05-03-2025|1500.00|INR|Sharma, Ravi|12345678901|SBIN0001234|State Bank of India|Andheri East|P250305101010A0000001|'-2 3 cmd /C calc",
        "RTGS|000405001234|05-03-2025|250000.00|INR|Jose D'Souza|50100012345678|HDFC0000240|HDFC Bank|Fort, Mumbai|P250305101010A0000002|HYPERLINK http //x",
        'NEFT|000405001234|05-03-2025|0.99|INR|Anil Kumar|000401000999|ICIC0000004|ICICI Bank|Nariman Point|P250305101010A0000003|',
      ),
    );
  });

  it('cuts texts to the bank’s length, neutralised within it, and never cuts an identifier', () => {
    const long = { ...rows[0]!, payeeName: `-${'A'.repeat(60)}`, remark: 'x'.repeat(50) };
    const [record] = exportBatchFile('hdfc-enet-vendor', batch, [long]).body.toString().split('\r\n');
    const fields = record!.split(',');
    expect(fields[4]).toBe(`'-${'A'.repeat(38)}`);
    expect(fields[14]).toBe('x'.repeat(30));

    const wide = { ...rows[0]!, cardNumber: '1'.repeat(21) };
    expect(() => exportBatchFile('icici-cib-bulk', batch, [wide])).toThrow(/Beneficiary Ac No" takes at most 20/);
  });

  it('refuses an amount that is not a positive integer of paise, and an empty or oversized batch', () => {
    for (const amount of [0, -100, 12.5]) {
      expect(() => exportBatchFile('sbi-cmp-bulk', batch, [{ ...rows[0]!, amount }])).toThrow(RangeError);
    }
    expect(() => exportBatchFile('sbi-cmp-bulk', batch, [])).toThrow(RangeError);
    expect(() => exportBatchFile('sbi-cmp-bulk', batch, Array(501).fill(rows[0]))).toThrow(RangeError);
    expect(() => exportBatchFile('sbi-cmp-bulk', { ...batch, payoutDate: '05/03/2025' }, rows)).toThrow(RangeError);
  });

  it("refuses a template id that is none: 'unsupported template type'", () => {
    const error = (() => {
      try {
        exportBatchFile('axis-paypro', batch, rows);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(BankFileError);
    expect(error).toMatchObject({
      code: Code.invalidInput,
      reason: 'unsupportedTemplate',
      message: 'Unsupported template type',
      data: { reason: 'unsupportedTemplate', issues: [{ path: 'templateId' }] },
    });
  });
});

describe('the declared templates', () => {
  it('are listed with their names in three languages, and one cannot read results back', () => {
    const listed = listTemplates();
    expect(listed.map((t) => t.id)).toEqual([...BANK_TEMPLATE_IDS]);
    for (const t of listed) expect(t.name).toBe(BANK_TEMPLATE_NAMES[t.id]);
    expect(listed.filter((t) => !t.supportsResult).map((t) => t.id)).toEqual(['sbi-cmp-bulk']);
    expect(listed.find((t) => t.id === 'hdfc-enet-vendor')).toMatchObject({ extension: 'txt', header: false });
  });

  it('carry what a bank needs, and what the result file is matched by', () => {
    for (const t of BANK_TEMPLATES) {
      const has = (key: string, value?: string) =>
        t.columns.some((c) => key in c && (value === undefined || (c as Record<string, unknown>)[key] === value));
      for (const code of ['payoutCode', 'cardNumber', 'ifscCode'])
        expect(has('code', code), `${t.id} ${code}`).toBe(true);
      expect(has('amount') && has('mode') && has('date') && has('text', 'payeeName'), t.id).toBe(true);
      // Bands ascend, and the last takes any amount.
      const bounds = t.modes.bands.map((b) => b.belowPaise);
      expect(bounds.at(-1), t.id).toBeUndefined();
      expect(
        bounds.slice(0, -1).every((b, i, all) => b !== undefined && (i === 0 || b > all[i - 1]!)),
        t.id,
      ).toBe(true);
      expect(t.textPunctuation, t.id).not.toContain('"');
      if (t.file.quoting === 'never') expect(t.textPunctuation, t.id).not.toContain(t.file.delimiter);
    }
  });
});
