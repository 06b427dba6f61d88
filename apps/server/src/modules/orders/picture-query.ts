import {
  type ImageUpload,
  MAX_MONEY_MINOR,
  PICTURE_MAX_PIXELS,
  PICTURE_MAX_SIDE,
  PICTURE_QUERY_AMOUNT_WINDOW_HOURS,
  PICTURE_QUERY_MAX_ORDERS,
  PICTURE_QUERY_TEXT_MAX,
  PICTURE_QUERY_TEXTS,
  utrSchema,
} from '@paydesk/contract';
import type { Clock } from '../../platform/clock.js';
import type { DataScope } from '../../platform/context.js';
import { invalid, refused } from '../../platform/errors.js';
import { checkImage, imageDimensions } from '../../platform/images.js';
import type { PictureReader } from '../../platform/picture-reader.js';
import type { SettingsStore } from '../../platform/settings.js';
import type { OrderQueries, OrderReader } from './orders.query.js';

/** At most this many UTR candidates and amounts are taken from one picture. */
const MAX_READ = 10;

/** Labels a receipt puts before its reference: UTR, RRN, UPI Ref No, Transaction ID, Txn No ... */
const LABELLED_REFERENCE =
  /\b(?:UTR|RRN|UPI\s*Ref(?:erence)?|Ref(?:erence)?|Transaction|Txn)(?:\s*(?:No\.?|Number|ID|Id))?\s*[:#.-]?\s*([A-Za-z0-9]{6,128})\b/gi;
/** A UPI UTR/RRN: 12 digits, which receipts sometimes print in groups of four. */
const TWELVE_DIGITS = /(?<![0-9])(\d{4}) ?(\d{4}) ?(\d{4})(?![0-9])/g;
/**
 * An amount with its currency or its label: ₹1,234.50, Rs 1234, Rs. 1,23,456/-, INR 1,234.00,
 * Amount: 1234.5. Digits only: the text is never read as a float.
 */
const AMOUNT =
  /(?:₹|\bRs\.?|\bINR|\bRupees|\bAmount(?:\s*paid)?\s*[:-]?)\s*([0-9]{1,3}(?:,[0-9]{2,3})+|[0-9]{1,16})(?:\.([0-9]{1,2}))?(?![0-9])/gi;

/**
 * The UTR candidates of a receipt's text: labelled references first (with a digit: a word after "Ref"
 * is not one), then every 12-digit number (spaces between groups of four dropped). Each passes the
 * contract's utrSchema; no repeats; at most MAX_READ.
 */
export function utrCandidates(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(LABELLED_REFERENCE)) {
    const token = m[1]!;
    if (/[0-9]/.test(token)) found.push(token);
  }
  for (const m of text.matchAll(TWELVE_DIGITS)) found.push(`${m[1]}${m[2]}${m[3]}`);
  const valid = found.filter((v) => utrSchema.safeParse(v).success);
  return [...new Set(valid)].slice(0, MAX_READ);
}

/** The amounts of a receipt's text in minor units (1/100), parsed from their digits; no repeats; at most MAX_READ. */
export function amountCandidates(text: string): number[] {
  const found: number[] = [];
  for (const m of text.matchAll(AMOUNT)) {
    const whole = m[1]!.replaceAll(',', '');
    const fraction = (m[2] ?? '').padEnd(2, '0');
    const minor = BigInt(whole) * 100n + BigInt(fraction);
    if (minor > 0n && minor <= BigInt(MAX_MONEY_MINOR)) found.push(Number(minor));
  }
  return [...new Set(found)].slice(0, MAX_READ);
}

/** The read text as answered: blank lines and runs of spaces folded, at most PICTURE_QUERY_TEXT_MAX characters. */
export function textExcerpt(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line.length > 0);
  return lines.join('\n').slice(0, PICTURE_QUERY_TEXT_MAX);
}

export interface PictureQueryDeps {
  clock: Clock;
  settings: Pick<SettingsStore, 'get'>;
  reader: PictureReader;
  queries: OrderQueries;
}

/**
 * Finds orders by a picture of the payer's receipt (orders.pictureQuery): refused while
 * AllowPictureQueryOrder is off (before anything is read), the picture checked by the common image
 * rule and its size in pixels, read by the picture reader (a worker thread, one at a time, bounded in
 * time), then the orders its UTRs or amounts point to within the caller's scope (the list's rows).
 */
export class PictureQuery {
  constructor(private readonly deps: PictureQueryDeps) {}

  async find(receipt: ImageUpload, scope: DataScope, caller: OrderReader) {
    if (!(await this.deps.settings.get('AllowPictureQueryOrder'))) {
      throw refused(PICTURE_QUERY_TEXTS.pictureQueryOff, 'pictureQueryOff');
    }
    const checked = checkImage(receipt.mime, receipt.imageBase64);
    if (!checked.ok) {
      throw invalid([{ path: 'receipt.imageBase64', message: PICTURE_QUERY_TEXTS[checked.reason] }], checked.reason);
    }
    const size = imageDimensions(checked.image.mime, checked.image.bytes);
    if (!size || size.width === 0 || size.height === 0) {
      throw refused(PICTURE_QUERY_TEXTS.pictureUnreadable, 'pictureUnreadable');
    }
    if (
      size.width > PICTURE_MAX_SIDE ||
      size.height > PICTURE_MAX_SIDE ||
      size.width * size.height > PICTURE_MAX_PIXELS
    ) {
      throw refused(PICTURE_QUERY_TEXTS.pictureTooLarge, 'pictureTooLarge');
    }
    const text = await this.deps.reader.read(checked.image.bytes);
    const utrs = utrCandidates(text);
    const amounts = amountCandidates(text);
    const since = new Date(this.deps.clock.now().getTime() - PICTURE_QUERY_AMOUNT_WINDOW_HOURS * 3_600_000);
    const { matchedBy, rows } = await this.deps.queries.findForPicture(scope, caller, {
      utrs,
      amounts,
      since,
      limit: PICTURE_QUERY_MAX_ORDERS,
    });
    return { text: textExcerpt(text), utrs, amounts, matchedBy, orders: rows };
  }
}
