import { z } from 'zod';
import { imageUploadSchema } from '../common/images.js';
import type { Role } from '../common/roles.js';

/**
 * Find an order by a picture of the payer's receipt (AllowPictureQueryOrder): the server reads the
 * picture's text (OCR), takes the UTRs and amounts it finds, and answers the orders they point to.
 * Staff who work orders, and technicalMaintenance (the order list's read-only staff: it changes nothing).
 * Merchants and suppliers are not offered it: the setting is a staff tool (spec section 7).
 */
export const PICTURE_QUERY_ROLES = [
  'superAdmin',
  'admin',
  'customerService',
  'technicalMaintenance',
] as const satisfies readonly Role[];

/** At most this many orders answered (UTR matches, or else recent orders of a read amount). */
export const PICTURE_QUERY_MAX_ORDERS = 20;
/** The amount match looks at orders created this long ago at most. */
export const PICTURE_QUERY_AMOUNT_WINDOW_HOURS = 24;
/** At most this many characters of the read text are answered (what the console shows). */
export const PICTURE_QUERY_TEXT_MAX = 2000;
/** A picture's largest side and pixel count: bounds the reader's memory and time (a small file can decode huge). */
export const PICTURE_MAX_SIDE = 4000;
export const PICTURE_MAX_PIXELS = 12_000_000;

export const pictureQueryRequest = z.strictObject({ receipt: imageUploadSchema });

/** How the answered orders were found. */
export const PICTURE_MATCHES = ['utr', 'amount', 'none'] as const;

export const pictureQueryAnswerShape = {
  /** What was read, at most PICTURE_QUERY_TEXT_MAX characters. */
  text: z.string(),
  /** UTR candidates read (a UPI UTR/RRN is 12 digits; a labelled reference may be any UTR). */
  utrs: z.array(z.string()),
  /** Amounts read, in minor units (1/100). */
  amounts: z.array(z.number().int()),
  matchedBy: z.enum(PICTURE_MATCHES),
};

/** The refusals' English messages (their reason keys have texts in three languages in server-texts.ts). */
export const PICTURE_QUERY_TEXTS = {
  pictureQueryOff: 'finding orders by picture is switched off (AllowPictureQueryOrder)',
  pictureQueryBusy: 'pictures are being read: try again in a moment',
  pictureUnreadable: 'the picture could not be read',
  fileType: 'the picture must be a PNG, JPEG or WebP image (file type error)',
  imageTooLarge: 'the picture is larger than 512 KiB',
  pictureTooLarge: `the picture is larger than ${PICTURE_MAX_SIDE} pixels a side or ${PICTURE_MAX_PIXELS / 1_000_000} megapixels`,
} as const;
