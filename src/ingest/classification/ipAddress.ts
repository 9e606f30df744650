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
      // A leading zero is refused, as Node's net.isIP does: some parsers read such octets as octal.
      if (digits === 1 && octet === 0) return null;
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
  const end = zone >= 0 ? zone : text.length;
  const groups = [0, 0, 0, 0, 0, 0, 0, 0];
  let count = 0;
  let gapAt = -1; // index in `groups` where `::` stands
  let i = 0;
  if (text.startsWith('::')) {
    gapAt = 0;
    i = 2;
  }
  while (i < end) {
    const groupStart = i;
    let value = 0;
    for (let digit = hexDigit(text.charCodeAt(i)); digit >= 0 && i < end; digit = hexDigit(text.charCodeAt(++i))) {
      value = value * 16 + digit;
    }
    if (i < end && text.charCodeAt(i) === DOT) {
      const v4 = count <= 6 ? parseIpv4(text.slice(groupStart, end)) : null;
      if (v4 === null) return null;
      groups[count++] = Math.floor(v4 / 0x10000);
      groups[count++] = v4 % 0x10000;
      break;
    }
    const digits = i - groupStart;
    if (digits === 0 || digits > 4 || count === 8) return null;
    groups[count++] = value;
    if (i === end) break;
    if (text.charCodeAt(i++) !== COLON || i === end) return null;
    if (text.charCodeAt(i) === COLON) {
      if (gapAt >= 0) return null;
      gapAt = count;
      i++;
    }
  }
  if (gapAt < 0 ? count !== 8 : count > 7) return null;
  const zeros = 8 - count;
  const words = new Uint32Array(4);
  for (let k = 0; k < 8; k++) {
    const group = gapAt < 0 || k < gapAt ? groups[k] : k < gapAt + zeros ? 0 : groups[k - zeros];
    words[k >> 1] = (words[k >> 1] ?? 0) * 0x10000 + (group ?? 0);
  }
  return words;
}

const DOT = 46;
const COLON = 58;

function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
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
