/**
 * The frame every report and notice mail shares: a plain-text body and an HTML one that reads
 * without images or remote styles (inline styles only, as mail clients strip the rest), each ending
 * with the unsubscribe line, and the RFC 2369 / RFC 8058 headers that let a mail client offer
 * "unsubscribe" itself.
 */

export const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');

export interface Framed {
  text: string;
  html: string;
  headers: Record<string, string>;
}

export function frameMail(input: { title: string; textBody: string; htmlBody: string; why: string; unsubscribeUrl: string }): Framed {
  const footer = `${input.why} To stop these mails, open ${input.unsubscribeUrl}`;
  const text = `${input.title}\n\n${input.textBody}\n\n--\n${footer}\n`;
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="color-scheme" content="light dark"><title>${escapeHtml(input.title)}</title></head>
<body style="margin:0;padding:24px;background:#f6f7f9;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1f2430">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e3e6ec;border-radius:8px;padding:24px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(input.title)}</h1>
${input.htmlBody}
<p style="margin:24px 0 0;font-size:12px;color:#5b6270">${escapeHtml(input.why)} <a href="${escapeHtml(input.unsubscribeUrl)}" style="color:#5b6270">Unsubscribe</a>.</p>
</div></body></html>`;
  return { text, html, headers: { 'List-Unsubscribe': `<${input.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
}
