import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

/** How the console shows an instant, and the text the server reads in date filters. */
export const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/**
 * The platform time zone (getInfo's `timeZone`, the server's TIME_ZONE). The server reads every time
 * sent as text (date filters, a batch's payout time) as wall-clock time there and counts its days
 * there, so the console shows times and computes "today" there too: a browser in another zone would
 * otherwise ask for a day that is not the platform's (in UTC after 18:30, "today" in India is already
 * tomorrow). Until a user is signed in (the sign-in and payer pages) it is the browser's own zone.
 */
let platformZone: string | undefined;

/** Set by the session as soon as getInfo answers, before any page renders a time. */
export function setPlatformTimeZone(zone: string | undefined): void {
  platformZone = zone;
}

/** An instant the server sent (ISO 8601), as the platform's wall-clock time; '' for none. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = dayjs(iso);
  if (!at.isValid()) return '';
  return (platformZone ? at.tz(platformZone) : at).format(TIME_FORMAT);
}

/**
 * Now, as a Dayjs whose fields (date, hour...) are the platform's wall clock. Date pickers and
 * presets work with it as with any local Dayjs; what they send, formatted, is platform time.
 */
export function platformNow(): Dayjs {
  if (!platformZone) return dayjs();
  return dayjs(dayjs().tz(platformZone).format(TIME_FORMAT));
}
