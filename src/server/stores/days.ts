/** Calendar days as stores and pages count them: UTC, YYYY-MM-DD. */

export function shiftDay(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
