/**
 * IP addresses as unsigned 32-bit words, most significant first: one word for IPv4, four for
 * IPv6. Hand-written parsers because they sit on the ingestion hot path and must reject
 * anything malformed without throwing.
 */
export type IpAddress = { family: 4; value: number } | { family: 6; words: Uint32Array };

/** Parses an IPv4 or IPv6 address; an IPv4-mapped IPv6 address (::ffff:a.b.c.d) counts as IPv4. */
export function parseIpAddress(text: string): IpAddress | null {
  if (text.includes(':')) {
    const words = parseIpv6(text);
    if (words === null) return null;
    if (words[0] === 0 && words[1] === 0 && words[2] === 0xffff) return { family: 4, value: words[3] ?? 0 };
    return { family: 6, words };
  }
  const value = parseIpv4(text);
  return value === null ? null : { family: 4, value };
}

/** Dotted-quad IPv4 → unsigned 32-bit number, or null. */
export function parseIpv4(text: string): number | null {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      octet = octet * 10 + (code - 48);
      if (++digits > 3 || octet > 255) return null;
    } else if (code === 46 && digits > 0 && dots < 3) {
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots++;
    } else {
      return null;
    }
  }
  if (dots !== 3 || digits === 0) return null;
  return value * 256 + octet;
}

/** IPv6 text (with `::`, an embedded IPv4 tail, or a `%zone`) → four 32-bit words, or null. */
export function parseIpv6(text: string): Uint32Array | null {
  const zone = text.indexOf('%');
  const address = zone >= 0 ? text.slice(0, zone) : text;
  const gap = address.indexOf('::');
  if (gap >= 0 && address.indexOf('::', gap + 1) >= 0) return null;
  const head = gap >= 0 ? groups(address.slice(0, gap)) : groups(address);
  const tail = gap >= 0 ? groups(address.slice(gap + 2)) : [];
  if (head === null || tail === null) return null;
  const count = head.length + tail.length;
  if (gap >= 0 ? count > 7 : count !== 8) return null;
  const all = [...head, ...new Array<number>(8 - count).fill(0), ...tail];
  const words = new Uint32Array(4);
  for (let i = 0; i < 4; i++) words[i] = (all[2 * i] ?? 0) * 0x10000 + (all[2 * i + 1] ?? 0);
  return words;
}

/** Colon-separated 16-bit groups; a final dotted IPv4 part counts as two groups. */
function groups(part: string): number[] | null {
  if (part === '') return [];
  const pieces = part.split(':');
  const result: number[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] ?? '';
    if (i === pieces.length - 1 && piece.includes('.')) {
      const v4 = parseIpv4(piece);
      if (v4 === null) return null;
      result.push(Math.floor(v4 / 0x10000), v4 % 0x10000);
    } else {
      if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return null;
      result.push(parseInt(piece, 16));
    }
  }
  return result;
}

/** An inclusive address range of one family, as words (one word for IPv4, four for IPv6). */
export interface AddressRange {
  family: 4 | 6;
  start: Uint32Array;
  end: Uint32Array;
}

/** `a.b.c.d/n`, `x:y::/n` or a single address → the inclusive range it covers; host bits are ignored. */
export function parseCidr(text: string): AddressRange | null {
  const slash = text.indexOf('/');
  const address = parseIpAddress(slash >= 0 ? text.slice(0, slash) : text);
  if (address === null) return null;
  const words = address.family === 4 ? Uint32Array.of(address.value) : address.words;
  const bits = words.length * 32;
  let prefix = bits;
  if (slash >= 0) {
    const prefixText = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(prefixText)) return null;
    prefix = Number(prefixText);
    // An IPv4-mapped address written with an IPv6 prefix length keeps meaning the same addresses.
    if (address.family === 4 && text.includes(':')) prefix -= 96;
    if (prefix < 0 || prefix > bits) return null;
  }
  const start = new Uint32Array(words.length);
  const end = new Uint32Array(words.length);
  for (let i = 0; i < words.length; i++) {
    const keep = Math.min(32, Math.max(0, prefix - 32 * i));
    const hostMask = keep === 32 ? 0 : 0xffffffff >>> keep;
    start[i] = (words[i] ?? 0) & ~hostMask;
    end[i] = (words[i] ?? 0) | hostMask;
  }
  return { family: address.family, start, end };
}
