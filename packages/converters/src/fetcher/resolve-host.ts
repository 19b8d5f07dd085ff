import { lookup } from "node:dns/promises";

/** One address a host name resolves to. */
export interface ResolvedAddress {
  /** The IPv4 or IPv6 address. */
  readonly address: string;
  /** 4 or 6. */
  readonly family: 4 | 6;
}

/**
 * Resolves a host name to its addresses. `LinkContentFetcher` checks every address it returns and
 * connects to the first: supply one (registered by name, like any function in a pipeline document) to
 * use another resolver, or in tests.
 */
export type ResolveHost = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The system resolver (`getaddrinfo`, so `/etc/hosts` applies: `localhost` is 127.0.0.1 or ::1). */
export const systemResolveHost: ResolveHost = async (hostname) => {
  const addresses = await lookup(hostname, { all: true, verbatim: true });
  return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};
