import { dashboardDownloadQuery } from '@contracts/dashboardDownload';
import { describe, expect, it } from 'vitest';
import { readState } from '../state';
import { downloadHref } from './DashboardDownload';

const href = (query: string) => downloadHref('/app/api/sites/example.com/dashboard.zip', readState(new URLSearchParams(query)), '2024-02-01');
const parsed = (link: string) => dashboardDownloadQuery.parse(Object.fromEntries(new URL(link, 'http://x').searchParams));

// The ZIP's address is the view (src/contracts/dashboardDownload.ts reads it back on the server).
describe('the dashboard download address', () => {
  it('carries a preset, leaving out what the view does not set', () => {
    expect(href('')).toBe('/app/api/sites/example.com/dashboard.zip?date_range=28d');
    expect(parsed(href(''))).toEqual({ date_range: '28d' });
  });

  it('carries a custom range, the filters and the imported-data choice, as the server reads them', () => {
    const filters = [['is', 'event:page', ['/a,b']]];
    const link = href(`period=custom&from=2024-01-08&to=2024-01-09&imported=false&filters=${encodeURIComponent(JSON.stringify(filters))}`);
    expect(parsed(link)).toEqual({ date_range: ['2024-01-08', '2024-01-09'], filters, imports: 'false' });
  });
});
