import type { SignType } from '@paydesk/contract';
import type { DbOrTx } from '../../db/client.js';
import { apiError } from '../../platform/errors.js';
import { ipAllowed } from '../../platform/ip-list.js';
import { signatureMatches } from '../orders/signature.js';
import type { MerchantsService, SigningSecret } from './merchants.service.js';

/**
 * The checks every signed merchant API call makes (DESIGN section 6), in the documented order: service
 * switch (2011), merchant known and enabled (2002), caller IP in the whitelist (2003), `signType` the
 * merchant's (2001), signature (2001). Order create, the query calls and payouts all go through here.
 */

/** What a signed call carries besides its own parameters (all of which are signed). */
export interface SignedParams {
  mchId: string | number;
  sign: string | number;
  signType?: string | number | undefined;
  readonly [name: string]: unknown;
}

/** The merchant a signed call authenticated. */
export interface SignedCaller {
  merchantId: number;
  merchantNo: string;
}

/** What the checks read, given by the caller so each module reads them its own way. */
export interface SignedCallSources {
  /** Whether the platform takes merchant calls now (the `enableService` setting). */
  serviceOpen(): Promise<boolean>;
  /** The signing facts of a merchant number, or null for an unknown one (`MerchantsService.signingSecretOf`). */
  signingOf(merchantNo: string): Promise<SigningSecret | null>;
}

/**
 * Checks a signed call against what `sources` read, in the documented order, and answers the merchant
 * it authenticated; a refusal is thrown as the merchant API's error. Nothing is read once a check fails
 * (a closed service reads no merchant).
 */
export async function checkSignedCall(
  params: SignedParams,
  ip: string,
  sources: SignedCallSources,
): Promise<SignedCaller> {
  if (!(await sources.serviceOpen())) throw apiError('serviceClosed');
  const signing = await sources.signingOf(String(params.mchId));
  if (!signing?.enabled) throw apiError('merchantUnavailable');
  if (!ipAllowed(signing.ipWhitelist, ip)) throw apiError('ipNotWhitelisted');
  const configured = signing.signType;
  const named = (params.signType ?? configured) as SignType;
  if (named !== configured) {
    // Said plainly only to a caller whose signature verifies under the type it named (it holds the
    // secret); anyone else gets the plain 2001 and learns nothing of the merchant's type.
    const knowsSecret = signatureMatches(params, signing.secret, named);
    throw apiError(
      'badSignature',
      knowsSecret ? `signType ${named} is not this merchant’s signature type (${configured})` : undefined,
    );
  }
  if (!signatureMatches(params, signing.secret, configured)) throw apiError('badSignature');
  return { merchantId: signing.merchantId, merchantNo: signing.merchantNo };
}

/**
 * The signed-call check of a module that reads the merchant by itself (one query per call): the query
 * calls and payouts. Order create reads the merchant with its own checks, batched, and calls
 * `checkSignedCall` with that read instead.
 */
export class SignedCalls {
  constructor(
    private readonly deps: {
      db: DbOrTx;
      merchants: Pick<MerchantsService, 'signingSecretOf'>;
      /** The `enableService` setting (e.g. `(await orderSettings.get()).enableService`). */
      serviceOpen: () => Promise<boolean>;
    },
  ) {}

  /** The merchant that signed `params` sent from `ip`, or the merchant API's refusal (2011, 2002, 2003, 2001). */
  check(params: SignedParams, ip: string): Promise<SignedCaller> {
    return checkSignedCall(params, ip, {
      serviceOpen: this.deps.serviceOpen,
      signingOf: (merchantNo) => this.deps.merchants.signingSecretOf(this.deps.db, merchantNo),
    });
  }
}
