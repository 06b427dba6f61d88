import { Code, type CodeValue, codeCatalogue, type ErrorData, type Issue, type Reason } from '@paydesk/contract';

/**
 * `data` of a refusal: its `reason` must be a key of the contract's REASON_TEXTS, so every reason the
 * server answers has its zh-CN, zh-TW and en-US texts (an unknown one does not compile).
 */
export type RefusalData = (Omit<NonNullable<ErrorData>, 'reason'> & { reason?: Reason }) | null;

/**
 * A refusal the client should see: a code of the catalogue, a message (the server's English, what
 * merchants and logs read), and optionally a stable `reason` key the console shows in the reader's
 * language. Anything else thrown becomes a 500 without internals.
 */
export class AppError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: RefusalData = null,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (what = 'not found') => new AppError(Code.notFound, what);
export const forbidden = (what = 'your role may not do this') => new AppError(Code.forbidden, what);
export const conflict = (what: string, reason?: Reason) =>
  new AppError(Code.conflict, what, reason ? { reason } : null);
export const refused = (what: string, reason?: Reason) =>
  new AppError(Code.businessRule, what, reason ? { reason } : null);
/** A 400 naming its fields; a `reason` when the rule is not a field's own format (a date window). */
export const invalid = (issues: Issue[], reason?: Reason) =>
  new AppError(Code.invalidInput, issues[0]?.message ?? 'invalid input', reason ? { issues, reason } : { issues });

/** A refusal with the catalogue's own message for its code (session, token2): one text for HTTP and websocket. */
export const catalogued = (code: CodeValue, data: RefusalData = null) =>
  new AppError(code, codeCatalogue[code].message, data);

/**
 * A refusal of the merchant API (codes 2001..2099) by its catalogue name, with the catalogue's message
 * unless the call needs a plainer one (the limits it broke); `data.orderCode` names an order it made.
 */
export const apiError = (code: keyof typeof Code, message?: string, data: { orderCode?: string } | null = null) => {
  const value = Code[code];
  return new AppError(value, message ?? codeCatalogue[value].message, data);
};

/** A session whose authenticator is not confirmed yet may only bind it. */
export const BIND_REQUIRED = {
  message: 'confirm your authenticator first',
  reason: 'bindRequired',
} as const satisfies {
  message: string;
  reason: Reason;
};
