import { type BankFileReason, Code, REASON_TEXTS } from '@paydesk/contract';
import { AppError } from '../../../platform/errors.js';

/** Why a whole bank file is refused: the bank files' own reasons and the upload's file checks. */
export type BankFileRefusal = BankFileReason | 'notCsv' | 'fileType' | 'parseFailed';

/**
 * A refusal of a template or of a whole result file: the catalogue's English text as `msg`, the
 * reason as `data.reason` (the console translates it), what exactly is wrong as the issue's message.
 * A template without result upload is a business rule (422); the rest are bad input (400).
 */
export class BankFileError extends AppError {
  constructor(
    readonly reason: BankFileRefusal,
    detail?: string,
  ) {
    const message = REASON_TEXTS[reason]['en-US'];
    const path = reason === 'unsupportedTemplate' || reason === 'templateWithoutResults' ? 'templateId' : 'file';
    super(reason === 'templateWithoutResults' ? Code.businessRule : Code.invalidInput, message, {
      reason,
      issues: [{ path, message: detail ?? message }],
    });
    this.name = 'BankFileError';
  }
}
