/**
 * English month and weekday names for date patterns (spec/sql.md §14.5 `MMM`, `MMMM`, `E`, `EE`),
 * as Java's `DateFormatSymbols` for Locale.ENGLISH spell them. Weekdays start on Monday.
 */

export const MONTH_NAMES: readonly string[] = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

export const MONTH_NAMES_SHORT: readonly string[] = MONTH_NAMES.map((m) => m.slice(0, 3));

/** Monday first, so index = ISO day of week − 1. */
export const DAY_NAMES: readonly string[] = [
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
];

export const DAY_NAMES_SHORT: readonly string[] = DAY_NAMES.map((d) => d.slice(0, 3));
