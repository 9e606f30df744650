/**
 * Whether a name is an IANA time zone this runtime knows. `Intl.supportedValuesOf('timeZone')`
 * omits aliases such as `UTC` and `Etc/UTC`, so the test is whether a formatter accepts it.
 */
export function isValidTimeZone(name: string): boolean {
  if (name.trim() !== name || name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
