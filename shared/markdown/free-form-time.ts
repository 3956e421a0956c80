/**
 * Free-form `<time:…>` texts (`Jun 5th 2017, 10:30PM`, `31 Dec 2017 5:30 am
 * IST`), the forms people type that are not ISO 8601. Zulip's server reads
 * these leniently (a date, an optional time, an optional zone abbreviation
 * or offset; no zone means UTC); we accept the common English forms through
 * date-fns `parse` and a table of widely used zone abbreviations.
 *
 * Its own module (date-fns' parser and English locale, ~25 KiB), loaded
 * through `load.ts` only for content containing `<time:`, and handed to the
 * renderer as `RenderLookups.parseFreeFormTime`.
 *
 * @see https://zulip.com/help/global-times
 */
import { isValid, parse } from "date-fns";

/**
 * Zone abbreviations and their UTC offsets in minutes. Where one is
 * ambiguous, the reading most people mean (IST: India, CST: US Central).
 */
const ZONE_OFFSETS: Readonly<Record<string, number>> = {
  UTC: 0, GMT: 0, Z: 0, WET: 0, BST: 60, CET: 60, CEST: 120, EET: 120, EEST: 180, MSK: 180,
  IST: 330, PKT: 300, NPT: 345, ICT: 420, WIB: 420, SGT: 480, HKT: 480, AWST: 480, CST: -360,
  JST: 540, KST: 540, ACST: 570, AEST: 600, AEDT: 660, NZST: 720, NZDT: 780,
  EST: -300, EDT: -240, CDT: -300, MST: -420, MDT: -360, PST: -480, PDT: -420,
  AKST: -540, AKDT: -480, HST: -600, AST: -240, ADT: -180, NST: -210, BRT: -180, ART: -180,
};

const DATES = [
  "MMM d yyyy", "MMM do yyyy", "MMMM d yyyy", "MMMM do yyyy",
  "d MMM yyyy", "do MMM yyyy", "d MMMM yyyy", "do MMMM yyyy",
  "EEE MMM d yyyy", "EEEE MMMM d yyyy", "EEE d MMM yyyy",
  "yyyy/MM/dd", "MM/dd/yyyy", "yyyy-MM-dd",
];
const TIMES = ["", " h:mma", " h:mm a", " h:mm:ssa", " h:mm:ss a", " ha", " h a", " HH:mm", " HH:mm:ss"];
const FORMATS = DATES.flatMap((date) => TIMES.map((time) => date + time));

/**
 * Reads a free-form date and time as a UTC instant.
 * @param text the text between `<time:` and `>`
 * @returns milliseconds since the epoch, or undefined when the text is not a date we read
 */
export function parseFreeFormTime(text: string): number | undefined {
  let value = text.replace(/,/g, " ").replace(/\s+/g, " ").trim();
  let offsetMinutes = 0;
  const zone = /\s(?:([A-Za-z]{1,5})|(?:UTC|GMT)?([+-])(\d{1,2}):?(\d{2})?)$/.exec(value);
  if (zone) {
    if (zone[1] !== undefined) {
      const known = ZONE_OFFSETS[zone[1].toUpperCase()];
      // `10 am` ends in a word too: only a known zone is taken off.
      if (known !== undefined && !/^[ap]m$/i.test(zone[1])) {
        offsetMinutes = known;
        value = value.slice(0, zone.index);
      }
    } else {
      offsetMinutes = (zone[2] === "-" ? -1 : 1) * (Number(zone[3]) * 60 + Number(zone[4] ?? "0"));
      value = value.slice(0, zone.index);
    }
  }
  const reference = new Date(2000, 0, 1);
  for (const format of FORMATS) {
    const date = parse(value, format, reference);
    if (!isValid(date)) continue;
    // date-fns builds a local time; its fields are the wall-clock time in the given zone.
    const wall = Date.UTC(date.getFullYear(), date.getMonth(), date.getDate(), date.getHours(), date.getMinutes(), date.getSeconds());
    return wall - offsetMinutes * 60_000;
  }
  return undefined;
}
