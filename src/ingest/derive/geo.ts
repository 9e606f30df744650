export interface GeoLocation { countryCode: string; subdivision1Code: string; subdivision2Code: string; city: string }
export interface GeoDatabase { lookup(ip: string): GeoLocation; close?(): void }
export async function openGeoDatabase(_options?: { cityDbDir?: string }): Promise<GeoDatabase> {
  return { lookup: () => ({ countryCode: '', subdivision1Code: '', subdivision2Code: '', city: '' }) };
}
export const GEO_ATTRIBUTION_HTML = '<a href="https://db-ip.com">IP Geolocation by DB-IP</a>';
