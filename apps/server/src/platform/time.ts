import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(customParseFormat);

/** The console's filter format (spec section 5). */
export const FILTER_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** A 'YYYY-MM-DD HH:mm:ss' filter value, read in the platform time zone. */
export function parsePlatformTime(text: string, timeZone: string): Date {
  return dayjs.tz(text, FILTER_FORMAT, timeZone).toDate();
}

/** An instant shown in the platform time zone, in the filter format. */
export function formatPlatformTime(at: Date, timeZone: string): string {
  return dayjs(at).tz(timeZone).format(FILTER_FORMAT);
}
