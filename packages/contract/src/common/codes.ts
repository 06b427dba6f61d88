/**
 * The error-code catalogue (DESIGN section 3). The body `code` is what clients read; `http` is the
 * status the server answers with. Codes 2001..2099 belong to the merchant API and are added by its
 * area. A code is never reused for another meaning.
 */
export const Code = {
  success: 200,
  invalidInput: 400,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  businessRule: 422,
  tooManyRequests: 429,
  internal: 500,
  wrongCredentials: 1001,
  wrongAuthCode: 1002,
  sessionExpired: 1003,
  accountLocked: 1004,
  token2Required: 1024,
  token2Expired: 1025,
  // Merchant API (DESIGN section 6): what an integration reads to know why an order was refused.
  badSignature: 2001,
  merchantUnavailable: 2002,
  ipNotWhitelisted: 2003,
  productUnavailable: 2004,
  duplicateOrderNo: 2005,
  amountOutOfRange: 2006,
  dailyLimitReached: 2007,
  allocationFailed: 2008,
  amountPrecision: 2009,
  kycRequired: 2010,
  serviceClosed: 2011,
  orderNotFound: 2012,
  insufficientBalance: 2013,
  payerNameInvalid: 2014,
  cardCountryRefused: 2015,
  payerNameBlocked: 2016,
  payeeNameBlocked: 2017,
} as const;
export type CodeName = keyof typeof Code;
export type CodeValue = (typeof Code)[CodeName];

export interface CodeInfo {
  http: number;
  /** Default English message; the console translates by code (and by `data.reason` when present). */
  message: string;
}

export const codeCatalogue: Record<CodeValue, CodeInfo> = {
  200: { http: 200, message: 'success' },
  400: { http: 400, message: 'invalid input' },
  403: { http: 403, message: 'your role may not do this' },
  404: { http: 404, message: 'not found' },
  409: { http: 409, message: 'conflict: it already exists or it changed meanwhile' },
  422: { http: 422, message: 'refused by a business rule' },
  429: { http: 429, message: 'too many requests, try again later' },
  500: { http: 500, message: 'internal error' },
  1001: { http: 401, message: 'account or password is incorrect' },
  1002: { http: 401, message: 'authenticator code is incorrect or already used' },
  1003: { http: 401, message: 'session expired, please sign in again' },
  1004: { http: 423, message: 'account locked after repeated failures, try again later' },
  1024: { http: 401, message: 'second-level password required' },
  1025: { http: 401, message: 'second-level password expired, enter it again' },
  2001: { http: 403, message: 'signature does not match' },
  2002: { http: 403, message: 'merchant unknown or disabled' },
  2003: { http: 403, message: 'caller IP address is not whitelisted' },
  2004: { http: 422, message: 'product unavailable for this merchant' },
  2005: { http: 409, message: 'mchOrderNo already used with different content' },
  2006: { http: 422, message: 'amount outside the allowed range' },
  2007: { http: 422, message: 'daily limit reached' },
  2008: { http: 422, message: 'allocation failed' },
  2009: { http: 400, message: 'amount would lose precision in this product’s units' },
  2010: { http: 422, message: 'payer name (userName) required from this amount (KYC)' },
  2011: { http: 503, message: 'the platform is not taking orders now' },
  2012: { http: 404, message: 'no such order' },
  2013: { http: 422, message: 'balance not enough for the payout amount plus its fee' },
  2014: { http: 422, message: 'payer name (userName) required: letters, spaces and dots, at most 128 characters' },
  2015: { http: 422, message: 'the payer’s card is of a country this channel does not accept' },
  2016: { http: 422, message: 'the payer name is on the platform’s blacklist' },
  2017: { http: 422, message: 'the payee name is on the platform’s blacklist' },
};

export function httpStatusOf(code: number): number {
  return codeCatalogue[code as CodeValue]?.http ?? (code >= 2000 && code < 2100 ? 400 : 500);
}
