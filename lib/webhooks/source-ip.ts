import { BlockList, isIP } from "node:net";

/**
 * The client address as seen by the nearest proxy: the right-most X-Forwarded-For entry, else the
 * socket's peer. Next.js sets that header from the socket when no proxy did; behind a proxy, the proxy
 * must set it.
 */
export function sourceIpFrom(
  headers: { get(name: string): string | null },
  socketAddress?: string,
): string | null {
  const forwarded = headers.get("x-forwarded-for");
  const last = forwarded?.split(",").at(-1)?.trim() || socketAddress;
  if (!last) return null;
  return last.startsWith("::ffff:") && isIP(last.slice(7)) === 4 ? last.slice(7) : last;
}

/** True when the address is inside one of the CIDRs (or equal to one of the plain addresses). */
export function ipAllowed(ip: string | null, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  if (!ip || !isIP(ip)) return false;
  return blockListOf(allowed).check(ip, isIP(ip) === 6 ? "ipv6" : "ipv4");
}

// Checked on every webhook against the same (cached) settings array: built once per array.
const blockLists = new WeakMap<readonly string[], BlockList>();

function blockListOf(allowed: readonly string[]): BlockList {
  let list = blockLists.get(allowed);
  if (!list) {
    list = new BlockList();
    for (const entry of allowed) {
      const [address, bits] = entry.split("/") as [string, string | undefined];
      const family = isIP(address) === 6 ? "ipv6" : "ipv4";
      if (bits === undefined) list.addAddress(address, family);
      else list.addSubnet(address, Number(bits), family);
    }
    blockLists.set(allowed, list);
  }
  return list;
}
