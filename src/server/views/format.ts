/**
 * Formatting for templates. Times are server times in ms; dates are shown in UTC. Times (m:ss) are
 * formatted as the browser does, by src/shared/display.ts.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 1764500000000 → '30 Nov 2025' (UTC). */
export function formatDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** 0.4567 → '46%'. */
export const formatPercent = (ratio: number): string => `${Math.round(ratio * 100)}%`;
