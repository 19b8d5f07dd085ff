import ipaddr from "ipaddr.js";

/** Which addresses `LinkContentFetcher` may connect to. */
export interface AddressPolicy {
  /** Allow every address (loopback, private, link-local, ...). */
  readonly allowPrivateAddresses: boolean;
  /** Ranges allowed even though they are not public (`"10.1.2.0/24"`), parsed. */
  readonly allowedRanges: readonly (readonly [ipaddr.IPv4 | ipaddr.IPv6, number])[];
}

/** Parses CIDR ranges (`"10.1.2.0/24"`, `"fd00::/8"`); a bare address is a range of one. */
export function parseRanges(ranges: readonly string[]): [ipaddr.IPv4 | ipaddr.IPv6, number][] {
  return ranges.map((range) => {
    if (ipaddr.isValidCIDR(range)) return ipaddr.parseCIDR(range);
    const address = ipaddr.parse(range);
    return [address, address.kind() === "ipv4" ? 32 : 128];
  });
}

/** True when `range` is a CIDR range or an address ipaddr.js can read. */
export function isValidRange(range: string): boolean {
  return ipaddr.isValidCIDR(range) || ipaddr.isValid(range);
}

/**
 * Why `address` may not be connected to, or `undefined` when it may. Only globally routable unicast
 * addresses pass by default: loopback, private, link-local (cloud metadata at 169.254.169.254),
 * unique-local, unspecified, carrier-grade NAT, multicast, reserved ranges and every IPv6 form that
 * embeds an IPv4 address (IPv4-mapped, NAT64, 6to4, Teredo) are refused.
 *
 * @param address - an IPv4 or IPv6 address (no brackets)
 */
export function refusedAddressReason(address: string, policy: AddressPolicy): string | undefined {
  if (policy.allowPrivateAddresses) return undefined;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return `"${address}", which is not an IP address`;
  }
  for (const [base, bits] of policy.allowedRanges) {
    if (base.kind() === parsed.kind() && parsed.match(base, bits)) return undefined;
  }
  const range = parsed.range();
  return range === "unicast" ? undefined : `${address}, a ${rangeNames[range] ?? range} address`;
}

const rangeNames: Record<string, string> = {
  loopback: "loopback",
  private: "private",
  linkLocal: "link-local",
  uniqueLocal: "unique-local",
  unspecified: "unspecified",
  ipv4Mapped: "IPv4-mapped IPv6",
  carrierGradeNat: "carrier-grade NAT",
  multicast: "multicast",
  broadcast: "broadcast",
  reserved: "reserved",
};
