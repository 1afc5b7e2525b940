/**
 * IPv4 text helpers for the IPv4 operators and functions (spec/sql.md §2.1, §15.4): dotted
 * quads, CIDR subnets and their masks. Addresses are unsigned numbers; 0 (0.0.0.0) is NULL.
 */

/** A network: its address and the number of leading bits that name it (32 = one host). */
export interface Subnet {
  net: number;
  bits: number;
}

const QUAD = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Parses `a.b.c.d` into an unsigned 32-bit number; undefined when malformed. */
export function parseIPv4(text: string): number | undefined {
  const m = QUAD.exec(text.trim());
  if (!m) return undefined;
  let v = 0;
  for (let i = 1; i <= 4; i++) {
    const part = Number(m[i]);
    if (part > 255) return undefined;
    v = v * 256 + part;
  }
  return v;
}

/** The mask of a prefix length as an unsigned number (`/8` → 255.0.0.0). */
export function maskOf(bits: number): number {
  return bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
}

/** Parses `a.b.c.d/n` or a bare address (n = 32); host bits are masked off. */
export function parseSubnet(text: string): Subnet | undefined {
  const slash = text.indexOf("/");
  if (slash < 0) {
    const ip = parseIPv4(text);
    return ip === undefined ? undefined : { net: ip, bits: 32 };
  }
  const bitsText = text.slice(slash + 1).trim();
  if (!/^\d{1,2}$/.test(bitsText)) return undefined;
  const bits = Number(bitsText);
  const ip = parseNetwork(text.slice(0, slash), bits);
  if (ip === undefined || bits > 32) return undefined;
  return { net: (ip & maskOf(bits)) >>> 0, bits };
}

/**
 * The network part of a CIDR subnet, as QuestDB's Numbers.parseSubnet0 reads it: one to four
 * octets filled from the left ('10.5/16' is 10.5.0.0), the prefix no longer than the octets
 * given allow (one octet: < 16 bits, two: < 24, three: < 32).
 */
function parseNetwork(text: string, bits: number): number | undefined {
  const parts = text.trim().split(".");
  if (parts.length > 4 || parts.some((p) => !/^\d{1,3}$/.test(p))) return undefined;
  if (parts.length < 4 && bits >= 8 * parts.length + 8) return undefined;
  let v = 0;
  for (let i = 0; i < 4; i++) {
    const part = i < parts.length ? Number(parts[i]) : 0;
    if (part > 255) return undefined;
    v = v * 256 + part;
  }
  return v;
}

/** Renders an unsigned address as a dotted quad. */
export function formatIPv4(v: number): string {
  return `${(v >>> 24) & 255}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
}

/** True when `inner` lies within `outer`; `strict` also requires `inner` to be smaller. */
export function subnetWithin(inner: Subnet, outer: Subnet, strict: boolean): boolean {
  if (strict ? inner.bits <= outer.bits : inner.bits < outer.bits) return false;
  const m = maskOf(outer.bits);
  return ((inner.net & m) >>> 0) === ((outer.net & m) >>> 0);
}
