import { UAParser } from 'ua-parser-js';
export interface ParsedUserAgent { browser: string; browserVersion: string; os: string; osVersion: string; device: 'Mobile' | 'Tablet' | 'Desktop' | '' }
export function parseUserAgent(userAgent: string): ParsedUserAgent {
  const r = new UAParser(userAgent.slice(0, 1024)).getResult();
  const mm = (v?: string) => (v ?? '').split('.').slice(0, 2).join('.');
  const device = r.device.type === 'mobile' ? 'Mobile' : r.device.type === 'tablet' ? 'Tablet' : r.os.name ? 'Desktop' : '';
  return { browser: r.browser.name ?? '', browserVersion: mm(r.browser.version), os: r.os.name ?? '', osVersion: mm(r.os.version), device };
}
