/**
 * The `blockPrivateNetworks` policy's rule, neutral: which hosts and
 * addresses are private (loopback, private ranges, link-local, carrier-grade
 * NAT, unspecified, unique-local IPv6, IPv4-mapped forms of these). Hosts are
 * taken as the WHATWG URL parser leaves them, so `0x7f.1`, `2130706433`,
 * `0177.0.0.1` and an IDN look-alike of `localhost` arrive here already as
 * `127.0.0.1` or `localhost`. The engine applies it to every request's host
 * and to every address a host name resolves to.
 */

/** IPv4 ranges as [first octets, prefix length, name]. */
const privateV4: [number[], number, string][] = [
  [[0], 8, "an unspecified (0.0.0.0/8) address"],
  [[10], 8, "a private (10.0.0.0/8) address"],
  [[100, 64], 10, "a carrier-grade NAT (100.64.0.0/10) address"],
  [[127], 8, "a loopback address"],
  [[169, 254], 16, "a link-local address"],
  [[172, 16], 12, "a private (172.16.0.0/12) address"],
  [[192, 168], 16, "a private (192.168.0.0/16) address"],
];

function v4Octets(address: string): number[] | undefined {
  const parts = address.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255)) return undefined;
  return parts.map(Number);
}

function v4Reason(octets: number[]): string | undefined {
  const value = ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
  for (const [start, prefix, name] of privateV4) {
    const base = ((start[0]! << 24) | ((start[1] ?? 0) << 16)) >>> 0;
    const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
    if ((value & mask) >>> 0 === (base & mask) >>> 0) return name;
  }
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part allowed), or undefined. */
function v6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted) {
    const octets = v4Octets(dotted[1]!);
    if (!octets) return undefined;
    text = `${text.slice(0, dotted.index)}${((octets[0]! << 8) | octets[1]!).toString(16)}:${((octets[2]! << 8) | octets[3]!).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const parse = (half: string) => (half === "" ? [] : half.split(":"));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return undefined;
  return groups.map((group) => parseInt(group, 16));
}

function v6Reason(groups: number[]): string | undefined {
  const [first] = groups as [number];
  if (groups.every((group) => group === 0)) return "an unspecified (::) address";
  if (groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1) return "a loopback address";
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): the IPv4 rule applies.
  if (groups.slice(0, 5).every((group) => group === 0) && (groups[5] === 0xffff || groups[5] === 0)) {
    const v4 = v4Reason([groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff]);
    if (v4) return `${v4} (IPv4-mapped)`;
  }
  if ((first & 0xfe00) === 0xfc00) return "a unique-local (fc00::/7) address";
  if ((first & 0xffc0) === 0xfe80) return "a link-local address";
  return undefined;
}

/** Why a resolved IP address is private, or undefined for a public one (or a string that is no IP address). */
export function privateAddressReason(address: string): string | undefined {
  const octets = v4Octets(address);
  if (octets) return v4Reason(octets);
  const groups = address.includes(":") ? v6Groups(address) : undefined;
  return groups ? v6Reason(groups) : undefined;
}

/**
 * Why a URL's host is private without a lookup (an IP literal, `localhost`
 * or a `.localhost` name), or undefined when only resolving it can tell.
 */
export function privateHostReason(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "a loopback name";
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return privateAddressReason(bare);
}
